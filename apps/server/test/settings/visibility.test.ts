import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

/** The display configuration decides what page reads show and what writes may change. */
describe("display configuration", () => {
  let runtime: Runtime;
  let token: string;
  let sim: VirtualDevice;
  let deviceId: number;

  const call = apiCaller(
    () => runtime.app,
    () => token,
  );

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("VIS"), phaseType: 2, timeZone: "Europe/Rome" });
    deviceId = d.id;
    sim = await manualDevice(runtime, d, "three", "rome");
    await sim.publishFrame();
    for (let i = 0; i < 50; i++) {
      const { rows } = await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [d.id]);
      if (rows[0]?.s === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    await sim.stop();
    await runtime.close();
  });

  it("hides a register from an audience, refuses its change, and restores the default", async () => {
    const read = async () =>
      (await call<{ values: Record<string, unknown> }>("GET", `/admin/param/set/obtain?deviceId=${deviceId}&val=47`)).body.data
        .values;
    expect(await read()).toHaveProperty("TP_0X03_55", 10);
    const hide = await call("POST", "/admin/param/visibility/save", {
      items: [{ registerId: "TP_0X03_55", audience: "backOffice", view: false, set: false }],
    });
    expect(hide.status).toBe(200);
    expect(await read()).not.toHaveProperty("TP_0X03_55");
    const mine = await call<Record<string, { view: boolean; set: boolean }>>("GET", "/admin/param/visibility/mine?page=47");
    expect(mine.body.data.TP_0X03_55).toEqual({ view: false, set: false });
    const refused = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/param/set/update", {
      deviceId,
      values: { TP_0X03_55: 20 },
    });
    expect(refused.body.data.fields).toEqual([{ field: "TP_0X03_55", message: "Your account may not change this setting" }]);
    expect(sim.brain.settings.TP_0X03_55).toBe(10);

    await call("POST", "/admin/param/visibility/save", {
      items: [{ registerId: "TP_0X03_55", audience: "backOffice", view: true, set: true, reset: true }],
    });
    expect(await read()).toHaveProperty("TP_0X03_55", 10);
    const list = await call<{ id: string; rights: Record<string, { overridden: boolean }> }[]>(
      "GET",
      "/admin/param/visibility?page=47",
    );
    expect(list.body.data.find((r) => r.id === "TP_0X03_55")?.rights.backOffice?.overridden).toBe(false);
  });

  it("refuses making a read-only register settable, and unknown registers", async () => {
    const answer = await call<{ fields: { field: string }[] }>("POST", "/admin/param/visibility/save", {
      items: [
        { registerId: "TP_0X04_25", audience: "consumer", view: true, set: true },
        { registerId: "NOPE", audience: "consumer", view: true, set: false },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.data.fields.map((f) => f.field)).toEqual(["items.0.set", "items.1.registerId"]);
    expect((await runtime.db.query("SELECT 1 FROM register_visibility")).rows).toEqual([]);
  });
});
