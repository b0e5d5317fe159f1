import { type DeviceSchedule, readSchedule, SCHEDULE_LAYOUT, scheduleChanges } from "@ess/domain";
import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Rec = { state: string; changes: { key: string; old: unknown; new: unknown }[] };
type PageAnswer = { values: Record<string, number> };

/**
 * The schedule as the console edits it (the domain's schedule model) written to simulated
 * devices of both models through the write route: one change record of the registers the edit
 * changes, applied by the device and read back from it; a schedule breaking spec §5 is refused at
 * its register and nothing is recorded.
 */
describe.each([
  ["three", 2],
  ["single", 1],
] as const)("the %s-phase schedule written and read back", (product, phaseType) => {
  let runtime: Runtime;
  let token: string;
  let sim: VirtualDevice;
  let deviceId: number;
  const page = SCHEDULE_LAYOUT[product].page;
  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const records = async () =>
    (await runtime.db.query<Rec>("SELECT state, changes FROM device_write WHERE device_id = $1 ORDER BY id", [deviceId])).rows;
  /** The schedule the device answers a page read with. */
  const deviceSchedule = async () => {
    const answer = await call<PageAnswer>("GET", `/admin/param/set/obtain?deviceId=${deviceId}&val=${page}`);
    expect(answer.body.code).toBe(0);
    const read = readSchedule(product, answer.body.data.values);
    if (!read.ok) throw new Error(`unreadable: ${read.unreadable.join(", ")}`);
    return { values: answer.body.data.values, schedule: read.schedule };
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("SCH"), phaseType, timeZone: "Europe/Rome" });
    deviceId = d.id;
    sim = await manualDevice(runtime, d, product, "rome");
    await sim.publishFrame();
    const online = async () =>
      (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [d.id])).rows[0]?.s;
    for (let i = 0; i < 100 && (await online()) !== 1; i++) await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await sim?.stop();
    await runtime?.close();
  });

  it("sends only the changed registers as one record, which the device applies and answers back", async () => {
    const before = await deviceSchedule();
    const edited: DeviceSchedule = structuredClone(before.schedule);
    edited.hourly[6] = 3;
    edited.hourly[7] = 3;
    edited.quarters[1] = { ...edited.quarters[1], weekdays: { start: 1, end: 5 } } as DeviceSchedule["quarters"][number];
    (edited.quarters[1] as DeviceSchedule["quarters"][number]).outOfRange = {
      start: "09:30",
      end: "17:45",
      modeInside: 6,
      modeOutside: 0,
    };
    edited.specialDates[4] = { date: "2028-02-29", window: { start: "00:00", end: "12:00", modeInside: 4, modeOutside: 1 } };
    edited.soc.sell = { soc: 35, enabled: true };
    const changes = scheduleChanges(product, before.values, edited);
    const write = await call<Rec>("POST", "/admin/param/set/update", { deviceId, values: changes });
    expect(write.body.data.state).toBe("acknowledged");
    expect((await records()).length).toBe(1);
    expect(Object.fromEntries(write.body.data.changes.map((c) => [c.key, c.new]))).toEqual(changes);
    const after = await deviceSchedule();
    expect(after.schedule).toEqual(edited);
  });

  it("refuses a date the calendar lacks and overlapping quarters at their registers; nothing is recorded", async () => {
    const { values, schedule } = await deviceSchedule();
    const count = (await records()).length;
    const badDate = structuredClone(schedule);
    (badDate.specialDates[0] as DeviceSchedule["specialDates"][number]).date = "2027-02-30";
    const refused = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/param/set/update", {
      deviceId,
      values: scheduleChanges(product, values, badDate),
    });
    expect(refused.status).toBe(400);
    const { prefix, specialDates, quarters } = SCHEDULE_LAYOUT[product];
    expect(refused.body.msg).toBe("This date does not exist");
    expect(JSON.stringify(refused.body)).toContain(`${prefix}${specialDates[0] + 2}`);

    const overlap = structuredClone(schedule);
    (overlap.quarters[2] as DeviceSchedule["quarters"][number]).months = { start: 5, end: 9 };
    const refusedOverlap = await call("POST", "/admin/param/set/update", {
      deviceId,
      values: scheduleChanges(product, values, overlap),
    });
    expect(refusedOverlap.body.msg).toBe("The time period range cannot overlap");
    expect(JSON.stringify(refusedOverlap.body)).toContain(`${prefix}${quarters[2]}`);
    expect((await records()).length).toBe(count);
    expect((await deviceSchedule()).schedule).toEqual(schedule);
  });
});
