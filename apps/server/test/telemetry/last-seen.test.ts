import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { heardLast, registerDevice, testBroker, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained, manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

const HOUR = 3_600_000;

/**
 * A reporting device's last-seen time comes with its readings (the latest-state row the batch
 * writes), not from presence rewriting the device row: what the device list, the live view and
 * the offline sweep show must be the same as when it did.
 */
describe.each(testBroker())("last seen of a reporting device, through the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  const devices: VirtualDevice[] = [];
  const serials: string[] = [];

  const get = async <T>(url: string) => {
    const response = await runtime.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    return response.json() as { code: number; data: T };
  };
  const live = async (id: number) =>
    (
      await get<{ onlineStatus: number; lastSeenAt: number | null; latest: { ts: number } | null }>(
        `/admin/device/telemetry/latest?deviceId=${id}`,
      )
    ).data;
  const listed = async (sn: string) =>
    (
      await get<{ records: { sn: string; onlineStatus: number; lastSeenAt: string | null }[] }>(
        `/admin/lsydevice/page?sn=${sn}&size=10&sort=lastSeenAt&order=desc`,
      )
    ).data.records[0];
  // The device row's version: a rewrite of the row gives it another.
  const rowVersion = async (id: number) =>
    (await runtime.db.query<{ v: string }>("SELECT xmin::text AS v FROM device WHERE id = $1", [id])).rows[0]?.v;
  const historyCount = async (id: number) =>
    (await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM telemetry_history WHERE device_id = $1", [id])).rows[0]
      ?.n;

  beforeAll(async () => {
    runtime = await startTestRuntime(env);
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await clearRetained(runtime, serials);
    await runtime.close();
  });

  it("moves with every reading received, an older one too, without rewriting the device row", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("LS"), phaseType: 2, timeZone: "Europe/Rome" });
    serials.push(d.sn);
    const sim = await manualDevice(runtime, d, "three", "rome");
    devices.push(sim);
    const now = Date.now();
    await sim.publishFrame(now);
    await expect.poll(async () => (await live(d.id)).onlineStatus, { timeout: 5000 }).toBe(1);
    const first = (await live(d.id)).lastSeenAt as number;
    expect(first).toBeGreaterThanOrEqual(now - 1000);
    const version = await rowVersion(d.id);

    // The device's clock went back an hour: its reading is older than the one shown, yet it was
    // heard now.
    await sim.publishFrame(now - HOUR);
    await expect.poll(() => historyCount(d.id), { timeout: 5000 }).toBe(2);
    const after = await live(d.id);
    expect(after.latest?.ts).toBe(now);
    expect(after.lastSeenAt).toBeGreaterThan(first);
    expect(after.onlineStatus).toBe(1);
    const row = await listed(d.sn);
    expect(row).toMatchObject({ sn: d.sn, onlineStatus: 1 });
    expect(Date.parse(row?.lastSeenAt as string)).toBe(after.lastSeenAt);
    expect(await rowVersion(d.id)).toBe(version);
  });

  it("goes offline when silent past its time and online again with its next reading", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("LT"), phaseType: 2, timeZone: "Europe/Rome" });
    serials.push(d.sn);
    const sim = await manualDevice(runtime, d, "three", "rome");
    devices.push(sim);
    await sim.publishFrame(Date.now());
    await expect.poll(async () => (await live(d.id)).onlineStatus, { timeout: 5000 }).toBe(1);

    await heardLast(runtime.db, [d.id], "10 minutes");
    await runtime.telemetry.presence.sweep();
    expect((await live(d.id)).onlineStatus).toBe(0);

    await sim.publishFrame(Date.now());
    await expect.poll(async () => (await live(d.id)).onlineStatus, { timeout: 5000 }).toBe(1);
    expect((await live(d.id)).lastSeenAt).toBeGreaterThan(Date.now() - 5000);
  });
});
