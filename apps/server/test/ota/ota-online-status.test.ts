import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { type ScriptedDevice, scriptedDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";
import { addFirmware, apiAs, connectFleet, firmwareBytes } from "./ota-world.ts";

type Upgrade = { id: number; status: number; cause: string | null };

/**
 * A device shows "upgrading" (online status 2) only while an upgrade of it is under way. However
 * the upgrade ends — succeeded, failed by the device, failed by a timeout, cancelled, or found
 * ended by a sweep after a restart — the device gets its real status back: online if it is
 * reporting, offline if it has gone silent. A device that reports while its upgrade runs stays 2.
 */
describe("online status when an upgrade ends", () => {
  let runtime: Runtime;
  let token = "";
  let versionId = 0;
  const scripted: ScriptedDevice[] = [];
  const fleets: Awaited<ReturnType<typeof connectFleet>>[] = [];
  const api = apiAs(
    () => runtime.app,
    () => token,
  );
  const onlineOf = async (id: number) =>
    (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [id])).rows[0]?.s;
  const upgradeOf = async (id: number) =>
    (await api.get<{ records: Upgrade[] }>(`/admin/lsydeviceupgrade/page?deviceId=${id}`)).body.data.records[0];
  const send = async (deviceId: number) => {
    const sent = await api.post<Upgrade>("/admin/app/version/ota/send", { deviceId, id: versionId });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  };
  const ended = async (id: number) => {
    await expect.poll(async () => (await upgradeOf(id))?.status, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    return upgradeOf(id);
  };
  /** A scripted device that accepts its first order and then says nothing about it. */
  const accepting = async (prefix: string) => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2, timeZone: "Europe/Rome" });
    const device = await scriptedDevice(runtime.brokerUrl, d, { acceptsUpgrade: true, reportEveryMs: 500 });
    scripted.push(device);
    await expect.poll(() => onlineOf(d.id), { timeout: 10_000 }).toBe(1);
    return { id: d.id, device };
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({
      ESS_OTA_TICK_MS: "100",
      ESS_OTA_CONFIRM_TIMEOUT_S: "1",
      ESS_OTA_PROGRESS_TIMEOUT_S: "1",
      ESS_REPEAT_GUARD_MS: "0",
    });
    token = await signIn(runtime.app);
    versionId = (await addFirmware(api, { versionCode: "3.10", bytes: firmwareBytes(8192, 4) })).versionId;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...scripted.map((d) => d.stop()), ...fleets.map((f) => f.stop())]);
    await runtime?.close();
  });

  it("is online again after the device reports success or failure", async () => {
    const good = await connectFleet(runtime.db, runtime.brokerUrl, 1, { prefix: "OSOK", otaStepMs: 100 });
    const bad = await connectFleet(runtime.db, runtime.brokerUrl, 1, { prefix: "OSKO", otaStepMs: 100, otaFailRate: 1 });
    fleets.push(good, bad);
    const ok = good.devices[0] as { id: number };
    const ko = bad.devices[0] as { id: number };
    await send(ok.id);
    await send(ko.id);
    expect(await ended(ok.id)).toMatchObject({ status: 4 });
    expect((await ended(ko.id))?.status).toBe(3);
    await expect.poll(() => onlineOf(ok.id)).toBe(1);
    await expect.poll(() => onlineOf(ko.id)).toBe(1);
  });

  it("stays upgrading while the device reports during its upgrade, and is online once the upgrade times out", async () => {
    const x = await accepting("OSREP");
    await send(x.id);
    await expect.poll(() => onlineOf(x.id), { timeout: 5000 }).toBe(2);
    // Readings keep coming and the presence sweep runs: an upgrade under way keeps the device at 2.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await runtime.telemetry.presence.sweep();
    expect(await onlineOf(x.id)).toBe(2);
    expect(await ended(x.id)).toMatchObject({ status: 3, cause: "timeout" });
    expect(x.device.received("cmd/ota")).toHaveLength(3);
    await expect.poll(() => onlineOf(x.id), { timeout: 3000 }).toBe(1);
  });

  it("is offline once the upgrade of a device gone silent times out", async () => {
    const x = await accepting("OSSIL");
    await send(x.id);
    await expect.poll(() => onlineOf(x.id), { timeout: 5000 }).toBe(2);
    await x.device.goQuiet();
    // Heard last five minutes ago: longer than the silence that makes a device offline (90 s), shorter than an upgrading device may reboot (10 min).
    await runtime.db.query("UPDATE device SET last_seen_at = now() - interval '5 minutes' WHERE id = $1", [x.id]);
    expect(await ended(x.id)).toMatchObject({ status: 3, cause: "timeout" });
    await expect.poll(() => onlineOf(x.id), { timeout: 3000 }).toBe(0);
    const log = await api.get<{ records: { status: number; reason: string }[] }>(
      `/admin/device/onoffline/page?deviceId=${x.id}&size=10`,
    );
    expect(log.body.data.records[0]).toMatchObject({ status: 0, reason: "upgrade" });
  });

  it("is online after its campaign is cancelled", async () => {
    const x = await accepting("OSCAN");
    const sn = x.device.sn;
    const launched = await api.post<{ id: number }>("/admin/lsyupgrade/issued", {
      name: "Cancelled halfway",
      versionId,
      times: [new Date().toISOString()],
      batchSize: 1,
      batchIntervalS: 0,
      filter: { sn },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const campaignId = launched.body.data.id;
    await expect.poll(() => onlineOf(x.id), { timeout: 5000 }).toBe(2);
    expect((await api.post("/admin/lsyupgrade/pause", { id: campaignId })).status).toBe(200);
    expect((await api.post("/admin/lsyupgrade/cancel", { id: campaignId })).status).toBe(200);
    expect(await ended(x.id)).toMatchObject({ status: 3, cause: "cancelled" });
    await expect.poll(() => onlineOf(x.id), { timeout: 3000 }).toBe(1);
  });

  it("gets its real status from the sweep when it shows upgrading with nothing under way (ended before a restart)", async () => {
    const reporting = await accepting("OSRST");
    const silent = await accepting("OSRSS");
    await silent.device.goQuiet();
    // What a console killed between ending the upgrades and giving the status back leaves behind.
    await runtime.db.query("UPDATE device SET online_status = 2 WHERE id = ANY($1::bigint[])", [[reporting.id, silent.id]]);
    await runtime.db.query("UPDATE device SET last_seen_at = now() - interval '5 minutes' WHERE id = $1", [silent.id]);
    await runtime.telemetry.presence.sweep();
    expect(await onlineOf(reporting.id)).toBe(1);
    expect(await onlineOf(silent.id)).toBe(0);
    const reasons = await runtime.db.query<{ device_id: number; status: number; reason: string }>(
      "SELECT DISTINCT ON (device_id) device_id, status, reason FROM device_online_log WHERE device_id = ANY($1::bigint[]) ORDER BY device_id, id DESC",
      [[reporting.id, silent.id]],
    );
    expect(reasons.rows.map((r) => [r.device_id, r.status, r.reason])).toEqual([
      [reporting.id, 1, "upgrade"],
      [silent.id, 0, "upgrade"],
    ]);
  });
});
