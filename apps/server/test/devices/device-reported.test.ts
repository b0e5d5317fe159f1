import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

interface Record {
  id: number;
  versions: { dongle: string; mcu: string; dsp: string; battery: string };
  installedAt: string | null;
}

/** What a device record learns from the device itself: firmware versions and the installation date. */
describe("a device's record as it reports", () => {
  let runtime: Runtime;
  let token: string;
  const devices: VirtualDevice[] = [];

  const get = async (url: string) =>
    (await runtime.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })).json().data;
  const info = (id: number): Promise<Record> => get(`/admin/lsydevice/info?id=${id}`);

  beforeAll(async () => {
    runtime = await startTestRuntime({});
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await runtime.close();
  });

  it("fills the firmware versions from the readings and follows an upgrade", async () => {
    const three = await registerDevice(runtime.db, { sn: uniqueSerial("VT"), phaseType: 2, timeZone: "Europe/Berlin" });
    const single = await registerDevice(runtime.db, { sn: uniqueSerial("VS"), phaseType: 1, timeZone: "Europe/Rome" });
    expect((await info(three.id)).versions).toEqual({ dongle: "", mcu: "", dsp: "", battery: "" });
    const sim = {
      three: await manualDevice(runtime, three, "three", "munich"),
      single: await manualDevice(runtime, single, "single", "rome"),
    };
    devices.push(sim.three, sim.single);
    await sim.three.publishFrame(Date.now() - 60_000);
    await sim.single.publishFrame(Date.now() - 60_000);

    await expect
      .poll(async () => (await info(three.id)).versions, { timeout: 5000 })
      .toEqual({
        dongle: "1.30",
        mcu: "1.32",
        dsp: "2.15",
        battery: "1.21",
      });
    // Single-phase readings carry neither a communication-stick nor a battery version.
    await expect
      .poll(async () => (await info(single.id)).versions, { timeout: 5000 })
      .toEqual({
        dongle: "",
        mcu: "1.32",
        dsp: "2.08",
        battery: "",
      });

    // After an upgrade the device reports its new MCU version, and the record follows.
    sim.three.brain.condition.firmware = 145;
    await sim.three.publishFrame(Date.now() - 30_000);
    await expect.poll(async () => (await info(three.id)).versions.mcu, { timeout: 5000 }).toBe("1.45");

    // The list shows them and its firmware filter finds them.
    const page = await get(`/admin/lsydevice/page?firmwareVersion=1.45&size=50`);
    expect(page.records.map((r: { id: number }) => r.id)).toEqual([three.id]);
  });

  it("dates the installation at the first connection, and keeps it when the installer is bound later", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("VI"), phaseType: 1, timeZone: "Europe/Rome" });
    expect((await info(d.id)).installedAt).toBeNull();
    const sim = await manualDevice(runtime, d, "single", "rome");
    devices.push(sim);
    await sim.publishFrame(Date.now() - 60_000);
    await expect.poll(async () => (await info(d.id)).installedAt, { timeout: 5000 }).not.toBeNull();
    const first = (await info(d.id)).installedAt as string;
    expect(Math.abs(Date.parse(first) - Date.now())).toBeLessThan(60_000);

    const { rows } = await runtime.db.query<{ id: number }>(
      `INSERT INTO organisation (tenant_id, parent_id, name, kind, path)
       SELECT tenant_id, id, 'Fitters', 'installer', path FROM organisation WHERE kind = 'manufacturer' AND tenant_id = 1
       RETURNING id`,
    );
    const installer = rows[0]?.id as number;
    await runtime.db.query("UPDATE organisation SET path = path || id || '/' WHERE id = $1", [installer]);
    const bound = await runtime.app.inject({
      method: "POST",
      url: "/admin/lsydevice/bindAgent",
      headers: { authorization: `Bearer ${token}` },
      payload: { id: d.id, installerOrgId: installer },
    });
    expect(bound.json()).toMatchObject({ code: 0, data: { installerName: "Fitters", installedAt: first } });
    // The board counts it among this month's installations.
    const board = await get("/admin/board/total");
    const month = new Date().toISOString().slice(0, 7);
    expect(board.installations.byMonth.find((m: { month: string }) => m.month === month)?.count).toBeGreaterThanOrEqual(1);
  });
});
