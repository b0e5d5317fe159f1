import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";
import { addFirmware, apiAs, campaignDone, connectFleet, firmwareBytes } from "./ota-world.ts";

const DEVICES = 200;

/**
 * Done-when 1 of the OTA issue: a campaign to 200 simulated devices, one in ten failing on
 * purpose, ends with every device succeeded or failed with a cause, none stuck.
 */
describe("a campaign to 200 devices with a 10% failure rate", () => {
  let runtime: Runtime;
  let token = "";
  let fleet: Awaited<ReturnType<typeof connectFleet>>;
  const api = apiAs(
    () => runtime.app,
    () => token,
  );

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_OTA_TICK_MS: "200", ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    fleet = await connectFleet(runtime.db, runtime.brokerUrl, DEVICES, { prefix: "CAMP", otaFailRate: 0.1, otaStepMs: 20 });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await runtime?.close();
  });

  it("ends with every device succeeded or failed with a cause, in batches no larger than asked", async () => {
    const { versionId } = await addFirmware(api, { versionCode: "1.45", bytes: firmwareBytes(64 * 1024), phaseType: 2 });
    const launched = await api.post<{ id: number; counts: { total: number }; state: string }>("/admin/lsyupgrade/issued", {
      name: "Spring MCU roll-out",
      versionId,
      times: [new Date().toISOString()],
      batchSize: 40,
      batchIntervalS: 0,
      filter: { sn: fleet.prefix },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.counts.total).toBe(DEVICES);

    // Paced: never more upgrades in flight than one batch.
    let most = 0;
    const watch = setInterval(
      () =>
        void runtime.db
          .query<{ n: number }>(
            "SELECT count(*)::int AS n FROM device_upgrade WHERE campaign_id = $1 AND status IN (0, 1, 2) AND request_id IS NOT NULL",
            [launched.body.data.id],
          )
          .then((r) => {
            most = Math.max(most, r.rows[0]?.n ?? 0);
          }),
      100,
    );
    const done = await campaignDone(api, launched.body.data.id, 240_000);
    clearInterval(watch);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(40);

    expect(done.counts.succeeded + done.counts.failed).toBe(DEVICES);
    expect(done.counts.pending + done.counts.confirmed + done.counts.upgrading).toBe(0);
    // One in ten on purpose: between 3% and 20% for 200 devices.
    expect(done.counts.failed).toBeGreaterThanOrEqual(6);
    expect(done.counts.failed).toBeLessThanOrEqual(40);

    const rows = (
      await runtime.db.query<{ device_id: number; status: number; cause: string | null; result_code: number | null }>(
        "SELECT device_id, status, cause, result_code FROM device_upgrade WHERE campaign_id = $1",
        [launched.body.data.id],
      )
    ).rows;
    const failed = rows.filter((r) => r.status === 3);
    expect(failed.every((r) => r.cause !== null && r.result_code !== null)).toBe(true);
    expect(new Set(failed.map((r) => r.cause)).size).toBeGreaterThan(1);

    // No device is left showing "upgrading".
    const ids = fleet.devices.map((d) => d.id);
    await expect
      .poll(
        async () =>
          (
            await runtime.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND online_status = 2",
              [ids],
            )
          ).rows[0]?.n,
      )
      .toBe(0);

    // After success the device's version register shows the new version; after failure the old one.
    const ok = fleet.devices.find((d) => rows.find((r) => r.device_id === d.id)?.status === 4);
    const ko = fleet.devices.find((d) => rows.find((r) => r.device_id === d.id)?.status === 3);
    const version = async (deviceId: number) =>
      (await api.get<{ values: Record<string, number> }>(`/admin/param/set/obtain?deviceId=${deviceId}&val=41`)).body.data.values
        .TP_0X04_1;
    expect(await version(ok?.id as number)).toBe(145);
    expect(await version(ko?.id as number)).toBe(132);

    // The per-device records say the same.
    const records = await api.get<{ records: { versionCode: string; status: number; percent: number }[] }>(
      `/admin/lsydeviceupgrade/page?deviceId=${ok?.id}`,
    );
    expect(records.body.data.records[0]).toMatchObject({ versionCode: "1.45", status: 4, percent: 100 });
  }, 300_000);
});
