import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { freePort, tempDataDir } from "../helpers/server-process.ts";
import { signIn } from "../helpers/test-app.ts";
import { addFirmware, apiAs, type CampaignView, campaignDone, connectFleet, firmwareBytes } from "./ota-world.ts";

const DEVICES = 30;

/**
 * Done-when 1: a server restart in the middle of a campaign resumes it. The campaign, its
 * devices' upgrades and their orders live in the database; the devices reconnect, finish or are
 * sent their order again, and the campaign completes with nobody left open.
 */
describe("restarting the server in the middle of a campaign", () => {
  let runtime: Runtime | null = null;
  let fleet: Awaited<ReturnType<typeof connectFleet>> | null = null;
  afterAll(async () => {
    await fleet?.stop();
    await runtime?.close();
  });

  it("carries the campaign on after the restart until every device is done", async () => {
    const dataDir = tempDataDir("ess-ota-restart-");
    const [port, mqttPort] = [await freePort(), await freePort()];
    // PGlite in the data folder: the restarted server finds everything the first one wrote.
    const config = loadConfig({
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      ESS_ADMIN_PASSWORD: "Admin12345",
      NODE_ENV: "test",
      ESS_CAPTCHA: "off",
      ESS_REPEAT_GUARD_MS: "0",
      ESS_OTA_TICK_MS: "200",
      ESS_OTA_CONFIRM_TIMEOUT_S: "8",
      ESS_OTA_PROGRESS_TIMEOUT_S: "8",
    });
    runtime = await startRuntime(config);
    let token = await signIn(runtime.app);
    const api = apiAs(
      () => (runtime as Runtime).app,
      () => token,
    );
    fleet = await connectFleet(runtime.db, runtime.brokerUrl, DEVICES, { prefix: "REST", otaStepMs: 150 });
    const { versionId } = await addFirmware(api, { versionCode: "2.01", bytes: firmwareBytes(32 * 1024, 5) });
    const launched = await api.post<CampaignView>("/admin/lsyupgrade/issued", {
      name: "Through a restart",
      versionId,
      times: [new Date().toISOString()],
      batchSize: 5,
      batchIntervalS: 1,
      filter: { sn: fleet.prefix },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const id = launched.body.data.id;

    // Stop while some are done and others are under way or not yet ordered.
    await expect
      .poll(async () => (await api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data.counts.succeeded, {
        timeout: 60_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(5);
    const before = (await api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data;
    expect(before.counts.succeeded).toBeLessThan(DEVICES);
    await runtime.close();
    runtime = null;

    runtime = await startRuntime(config);
    token = await signIn(runtime.app);
    const done = await campaignDone(api, id, 180_000);
    expect(done.counts.succeeded + done.counts.failed).toBe(DEVICES);
    expect(done.counts.pending + done.counts.confirmed + done.counts.upgrading).toBe(0);
    // Nothing fails on purpose here: the restart costs no device its upgrade.
    const causes = (
      await runtime.db.query<{ cause: string }>("SELECT cause FROM device_upgrade WHERE campaign_id = $1 AND status = 3", [id])
    ).rows.map((r) => r.cause);
    expect(causes).toEqual([]);
    expect(done.counts.succeeded).toBe(DEVICES);
    expect(fleet.devices.every((d) => d.sim.brain.condition.firmware === 201)).toBe(true);
    // Each device ran its upgrade once: orders sent again were answered, not flashed twice.
    expect(fleet.devices.every((d) => d.sim.upgradesRun === 1)).toBe(true);
  }, 300_000);
});
