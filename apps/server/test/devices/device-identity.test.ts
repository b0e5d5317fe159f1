import type { DeviceRecord } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

/**
 * What a device says it is — model, rated power, country code, battery chemistry — reaches its
 * record, its list's columns and filters; what staff typed stays where the device says nothing,
 * and is kept beside the device's value where the two differ.
 */
describe("a device's identity as it reports it", () => {
  let runtime: Runtime;
  let token: string;
  const devices: VirtualDevice[] = [];

  const request = async (method: "GET" | "POST", url: string, payload?: object) =>
    (await runtime.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } })).json();
  const info = async (id: number): Promise<DeviceRecord> => (await request("GET", `/admin/lsydevice/info?id=${id}`)).data;
  const found = async (query: string) =>
    ((await request("GET", `/admin/lsydevice/page?size=100&${query}`)).data.records as DeviceRecord[]).map((r) => r.id);

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_IDENTITY_READ_MS: "1000" });
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await runtime.close();
  });

  it("shows the model, rated power and country the readings report, and the list's filters find them", async () => {
    const three = await registerDevice(runtime.db, { sn: uniqueSerial("IT"), phaseType: 2, timeZone: "Europe/Berlin" });
    const single = await registerDevice(runtime.db, { sn: uniqueSerial("IS"), phaseType: 1, timeZone: "Europe/Rome" });
    expect(await info(three.id)).toMatchObject({ model: null, ratedPower: null, countryCode: null });
    const sim = {
      three: await manualDevice(runtime, three, "three", "munich"),
      single: await manualDevice(runtime, single, "single", "rome"),
    };
    devices.push(sim.three, sim.single);
    const firstAt = Date.now() - 60_000;
    await sim.three.publishFrame(firstAt);
    await sim.single.publishFrame(firstAt);

    // The three-phase inverter names its model; the single-phase one is known by its rated power.
    await expect
      .poll(async () => info(three.id), { timeout: 5000 })
      .toMatchObject({
        model: "H3-12K",
        ratedPower: 12,
        countryCode: 2,
        registered: { model: null, ratedPower: null, countryCode: null },
        reported: { model: "H3-12K", ratedPower: 12, countryCode: 2 },
      });
    await expect
      .poll(async () => info(single.id), { timeout: 5000 })
      .toMatchObject({ model: "H6K", ratedPower: 6, countryCode: 1, reported: { model: "H6K" } });

    expect(await found("model=H3-12K")).toEqual([three.id]);
    // An earlier code of the model finds it too.
    expect(await found("model=T12K")).toEqual([three.id]);
    expect(await found("model=H6K")).toContain(single.id);
    expect(await found("model=H6K")).not.toContain(three.id);
    expect(await found("countryCode=2")).toContain(three.id);
    expect(await found("countryCode=2")).not.toContain(single.id);
    const byPower = (await request("GET", "/admin/lsydevice/page?size=100&sort=ratedPower&order=desc")).data.records;
    expect(byPower.findIndex((r: DeviceRecord) => r.id === three.id)).toBeLessThan(
      byPower.findIndex((r: DeviceRecord) => r.id === single.id),
    );

    // A reading that says the same again writes nothing: the record keeps the time of the first.
    const reportedAt = (await info(three.id)).reported.at;
    expect(Date.parse(reportedAt as string)).toBe(firstAt);
    await sim.three.publishFrame(firstAt + 10_000);
    await expect
      .poll(async () => (await runtime.db.query("SELECT 1 FROM telemetry_history WHERE device_id = $1", [three.id])).rowCount)
      .toBe(2);
    expect((await info(three.id)).reported.at).toBe(reportedAt);

    // A change is written; a reading dated before it, still with the old value, does not undo it.
    // (The console asks the device its battery chemistry once, a page that also holds its country:
    // that read is waited for, so the device's own answer of the moment cannot interleave.)
    await expect
      .poll(
        async () =>
          (await runtime.db.query("SELECT battery_chemistry FROM device WHERE id = $1", [three.id])).rows[0]?.battery_chemistry,
        {
          timeout: 10_000,
        },
      )
      .not.toBeNull();
    const site = sim.three.brain.plant.spec.site;
    sim.three.brain.plant.spec.site = { ...site, countryCode: 13 };
    await sim.three.publishFrame(firstAt + 20_000);
    await expect.poll(async () => (await info(three.id)).countryCode, { timeout: 5000 }).toBe(13);
    expect(await found("countryCode=13")).toContain(three.id);
    sim.three.brain.plant.spec.site = site;
    await sim.three.publishFrame(firstAt + 15_000);
    await expect
      .poll(async () => (await runtime.db.query("SELECT 1 FROM telemetry_history WHERE device_id = $1", [three.id])).rowCount)
      .toBe(4);
    expect((await info(three.id)).countryCode).toBe(13);
  });

  it("keeps what staff typed where the device reports nothing, and beside the device's value where they differ", async () => {
    const created = await request("POST", "/admin/lsydevice/save", {
      sn: uniqueSerial("IR"),
      name: "Typed",
      model: "T10K",
      countryCode: 3,
      batteryType: 1,
    });
    expect(created.code).toBe(0);
    const typed: DeviceRecord = created.data;
    // An earlier model code is stored as today's; the model's rated power stands in for the typed one.
    expect(typed).toMatchObject({
      model: "H3-10K",
      ratedPower: 10,
      countryCode: 3,
      batteryType: 1,
      registered: { model: "H3-10K", ratedPower: 10, countryCode: 3 },
      reported: { model: null, ratedPower: null, countryCode: null, at: null },
    });
    expect(await found("model=H3-10K")).toEqual([typed.id]);

    // The device turns out to be a 12 kW inverter set up for Germany: its own word is shown.
    const sim = await manualDevice(runtime, { sn: typed.sn, secret: created.data.credential.secret }, "three", "munich");
    devices.push(sim);
    await sim.publishFrame(Date.now() - 30_000);
    await expect
      .poll(async () => info(typed.id), { timeout: 5000 })
      .toMatchObject({
        model: "H3-12K",
        ratedPower: 12,
        countryCode: 2,
        batteryType: 1,
        registered: { model: "H3-10K", ratedPower: 10, countryCode: 3 },
      });
    expect(await found("model=H3-10K")).not.toContain(typed.id);
    expect(await found("model=H3-12K")).toContain(typed.id);

    // Editing the registration changes what staff typed, never what the device said.
    const edited = await request("POST", "/admin/lsydevice/edit", {
      id: typed.id,
      name: "Typed",
      model: "H3-20K",
      countryCode: 3,
    });
    expect(edited.data).toMatchObject({ model: "H3-12K", registered: { model: "H3-20K", ratedPower: 20, countryCode: 3 } });
  });

  it("asks an online device for the battery chemistry its settings hold, and filters by it", async () => {
    const never = await registerDevice(runtime.db, { sn: uniqueSerial("IN"), phaseType: 2, timeZone: "Europe/Berlin" });
    const three = await registerDevice(runtime.db, { sn: uniqueSerial("IB"), phaseType: 2, timeZone: "Europe/Berlin" });
    const single = await registerDevice(runtime.db, { sn: uniqueSerial("IB"), phaseType: 1, timeZone: "Europe/Rome" });
    const sims = [await manualDevice(runtime, three, "three", "munich"), await manualDevice(runtime, single, "single", "rome")];
    devices.push(...sims);
    for (const sim of sims) await sim.publishFrame(Date.now() - 30_000);

    // Nobody opened their settings: the console asked them (three-phase page 48, single-phase page 8). Lithium.
    await expect
      .poll(async () => [(await info(three.id)).batteryChemistry, (await info(single.id)).batteryChemistry], { timeout: 10_000 })
      .toEqual([1, 1]);
    expect(await info(three.id)).toMatchObject({ reported: { batteryChemistry: 1 } });
    expect(await found("batteryChemistry=1")).toEqual(expect.arrayContaining([three.id, single.id]));
    expect(await found("batteryChemistry=0")).not.toContain(three.id);
    // What they answered is also what the console knows of their settings, as after a user's read.
    const known = await runtime.db.query("SELECT 1 FROM device_setting_value WHERE device_id = $1 AND key = 'TP_0X03_1047'", [
      three.id,
    ]);
    expect(known.rowCount).toBe(1);
    // A device that never connected is not asked.
    const { rows } = await runtime.db.query<{ identity_read_at: Date | null }>(
      "SELECT identity_read_at FROM device WHERE id = $1",
      [never.id],
    );
    expect(rows[0]?.identity_read_at).toBeNull();
  });

  it("refuses a filter value that is not a number, naming the field", async () => {
    const answer = await runtime.app.inject({
      method: "GET",
      url: "/admin/lsydevice/page?batteryChemistry=lithium",
      headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().msg).toBe("Battery type has the wrong type");
  });
});
