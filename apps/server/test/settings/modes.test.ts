import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";

describe("mode management and mode-switch records", () => {
  let runtime: Runtime;
  let token: string;
  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const mode = {
    code: "PEAK",
    name: "Peak shaving",
    description: "Discharge in the evening peak",
    chargeSoc: 95,
    sellSoc: 30,
    dischargeOffSoc: 15,
    periodsText: "00:00-17:00\n17:00-21:00\n21:00-23:59",
  };
  const count = async () => (await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM energy_mode")).rows[0]?.n;

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
  });
  afterAll(() => runtime.close());

  it("keeps a mode whose periods cover the day, and refuses a taken encoding", async () => {
    const saved = await call<{ id: number; periodsText: string }>("POST", "/admin/mode/save", mode);
    expect(saved.status).toBe(200);
    expect(saved.body.data.periodsText).toBe(mode.periodsText);
    const again = await call<{ fields: { field: string }[] }>("POST", "/admin/mode/save", mode);
    expect(again.body.data.fields.map((f) => f.field)).toEqual(["code"]);
    const page = await call<{ records: { code: string }[] }>("GET", "/admin/mode/page");
    expect(page.body.data.records.map((r) => r.code)).toEqual(["PEAK"]);
  });

  it("refuses generated periods that leave a gap or overlap, with the spec's message, and stores nothing", async () => {
    const before = await count();
    const broken = fc.oneof(
      fc.integer({ min: 1, max: 22 }).map((h) => ({
        text: `00:00-${String(h).padStart(2, "0")}:00`,
        msg: "The time periods must cover the whole day, 00:00-23:59",
      })),
      fc.integer({ min: 1, max: 22 }).map((h) => ({
        text: `00:00-${String(h + 1).padStart(2, "0")}:00\n${String(h).padStart(2, "0")}:00-23:59`,
        msg: "There is an overlap in the time periods. Please check!",
      })),
      fc.constant({ text: "", msg: "The time period cannot be empty. Please add at least one valid time period." }),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ text, msg }) => {
        const answer = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/mode/save", {
          ...mode,
          code: "X",
          periodsText: text,
        });
        expect(answer.status).toBe(400);
        expect(answer.body.data.fields).toContainEqual({ field: "periodsText", message: msg });
        expect(await count()).toBe(before);
      }),
      { numRuns: 20 },
    );
  });

  it("lists each change of a device's system mode as a mode-switch record", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("MOD"), phaseType: 2 });
    await call("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_72: 3 }, queueIfOffline: true });
    await call("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_55: 5 }, queueIfOffline: true });
    const records = await call<{ records: { from: number | null; to: number; state: string; by: string }[]; total: number }>(
      "GET",
      `/admin/mode/switch/page?deviceId=${d.id}`,
    );
    expect(records.body.data.total).toBe(1);
    expect(records.body.data.records[0]).toMatchObject({ from: null, to: 3, state: "queued" });
  });
});
