import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { registerDevice, testBroker, uniqueSerial } from "../helpers/devices.ts";
import { failingDb } from "../helpers/failing-db.ts";
import { freePort, tempDataDir } from "../helpers/server-process.ts";
import { clearRetained, manualDevice, metric } from "../helpers/sim.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

/**
 * Alarm observations outlive a database outage. The outage is a database layer that refuses the
 * alarm detector's statements (those on device_alarm) while ingest's and the event store's go
 * through: the database going away right after a reading or an event was committed, which a real
 * outage cannot be timed to do. A console restart during the outage loses nothing either.
 */
describe.each(testBroker())("alarm observations through a database outage, on the $name", ({ name, env }) => {
  const outage = failingDb(/\bdevice_alarm\b/);
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let start: () => Promise<Runtime>;
  let runtime: Runtime;
  let device: VirtualDevice;
  let deviceId: number;
  let sn: string;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    const config = {
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATA_DIR: tempDataDir(),
      LOG_LEVEL: "silent",
      ESS_ADMIN_PASSWORD: "Admin12345",
      NODE_ENV: "test",
      ESS_CAPTCHA: "off",
      ESS_ALARM_CLEAR_HOLD_S: "0",
      ESS_ALARM_RECOVERY_S: "1",
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    };
    start = () => startRuntime(loadConfig(config), { wrapDb: outage.wrap });
    runtime = await start();
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("OUTG"), phaseType: 2, timeZone: "Europe/Rome" });
    deviceId = d.id;
    sn = d.sn;
    device = await manualDevice(runtime, d, "three", "rome");
  });
  afterAll(async () => {
    outage.set(false);
    await device?.stop();
    if (runtime) await clearRetained(runtime, [sn]);
    await runtime?.close();
    await database?.drop();
  });

  const openCodes = async () =>
    (
      await runtime.db.query<{ code: number }>(
        "SELECT code FROM device_alarm WHERE device_id = $1 AND cleared_at IS NULL ORDER BY code",
        [deviceId],
      )
    ).rows.map((r) => r.code);
  const status = async () =>
    (await runtime.db.query<{ status: number }>("SELECT status FROM device WHERE id = $1", [deviceId])).rows[0]?.status;
  const waiting = async () =>
    (
      await runtime.db.query<{ notes: number; events: number }>(
        `SELECT (SELECT count(*)::int FROM alarm_detection_pending) AS notes,
                (SELECT count(*)::int FROM device_alarm_event WHERE device_id = $1 AND NOT detected) AS events`,
        [deviceId],
      )
    ).rows[0];
  const failures = () => metric(runtime, "ess_alarm_detection_failures_total");
  /** A reading, waited for until stored (an external broker acknowledges it before the console has it). */
  async function reading() {
    const at = Date.now();
    await device.publishFrame(at);
    await expect
      .poll(
        async () =>
          (await runtime.db.query("SELECT 1 FROM telemetry_history WHERE device_id = $1 AND ts = $2", [deviceId, new Date(at)]))
            .rowCount,
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
  }

  it(`applies what readings and events showed while the database refused alarm detection, once it answers (${name})`, async () => {
    await reading();
    outage.set(true);
    await device.injectFault(2102, Date.now());
    await reading();
    await reading();
    await expect.poll(failures, { timeout: 10_000 }).toBeGreaterThan(0);
    // Stored, not applied: the readings' notes and the event wait in the database.
    expect(await waiting()).toMatchObject({ events: 1 });
    expect((await waiting())?.notes).toBeGreaterThan(0);
    // Longer than the console retries on its own (ESS_ALARM_RECOVERY_S): the recovery pass takes over.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    outage.set(false);
    await expect.poll(openCodes, { timeout: 10_000 }).toEqual([2102]);
    expect(await status()).toBe(3);
    await expect.poll(waiting, { timeout: 10_000 }).toEqual({ notes: 0, events: 0 });
  });

  it(`loses none of them when the console restarts during the outage (${name})`, async () => {
    outage.set(true);
    const refusedBefore = outage.refused();
    await device.clearFault(2102, Date.now());
    await device.injectFault(2001, Date.now());
    await reading();
    await reading();
    await expect.poll(outage.refused, { timeout: 10_000 }).toBeGreaterThan(refusedBefore);
    expect((await waiting())?.events).toBe(2);

    await runtime.close();
    outage.set(false);
    runtime = await start();
    // Nothing new arrives: only the recovery pass can apply what was stored before the restart.
    await expect.poll(openCodes, { timeout: 15_000 }).toEqual([2001]);
    expect(await status()).toBe(0);
    await expect.poll(waiting, { timeout: 10_000 }).toEqual({ notes: 0, events: 0 });
  });
});
