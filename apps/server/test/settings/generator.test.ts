import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";

describe("generator settings", () => {
  let runtime: Runtime;
  let token: string;
  let deviceId: number;

  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const valid = {
    on: false,
    ratedPowerKw: 20,
    availablePct: 80,
    controlMode: "soc",
    socLower: 20,
    socUpper: 80,
    slots: [{ start: "06:00", end: "09:00" }],
    outputMode: 1,
    chargePowerKw: 3,
  };
  const stored = async () => JSON.stringify((await call("GET", `/admin/generator/info?deviceId=${deviceId}`)).body.data);

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    deviceId = (await registerDevice(runtime.db, { sn: uniqueSerial("GEN"), phaseType: 1, timeZone: "UTC" })).id;
  });
  afterAll(() => runtime.close());

  it("saves valid settings and reads them back", async () => {
    expect((await call("GET", `/admin/generator/info?deviceId=${deviceId}`)).body.data).toMatchObject({
      settings: null,
      gridConnected: false,
    });
    const saved = await call("POST", "/admin/generator/operate", { deviceId, ...valid });
    expect(saved.body.data).toMatchObject(valid);
  });

  it("refuses every generated break of the generator rules with its message and keeps what was stored", async () => {
    const before = await stored();
    const broken = fc.oneof(
      fc
        .integer({ min: -5, max: 9 })
        .map((kw) => ({ patch: { ratedPowerKw: kw }, msg: "The rated power must be between 10 and 50 kW" })),
      fc
        .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
        .filter(([lo, hi]) => hi <= lo)
        .map(([lo, hi]) => ({ patch: { socLower: lo, socUpper: hi }, msg: "The upper SOC bound must be above the lower one" })),
      fc.constant({ patch: { socUpper: null }, msg: "SOC control needs both the upper and the lower bound" }),
      fc.constant({
        patch: {
          slots: [
            { start: "06:00", end: "09:00" },
            { start: "08:30", end: "10:00" },
          ],
        },
        msg: "The time slots conflict",
      }),
      fc.constant({ patch: { chargePowerKw: null }, msg: "Please enter the battery charging power" }),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ patch, msg }) => {
        const answer = await call<{ fields: { message: string }[] }>("POST", "/admin/generator/operate", {
          deviceId,
          ...valid,
          ...patch,
        });
        expect(answer.status).toBe(400);
        expect(answer.body.data.fields.map((f) => f.message)).toContain(msg);
        expect(await stored()).toBe(before);
      }),
      { numRuns: 25 },
    );
  });

  it("cannot be switched on while the grid is connected", async () => {
    await runtime.db.query(
      "INSERT INTO telemetry_history (device_id, ts, seq, system_state, blocks) VALUES ($1, now(), 1, 6, '\\x')",
      [deviceId],
    );
    await runtime.db.query(
      "INSERT INTO device_latest (device_id, ts, seq, received_at) SELECT device_id, ts, seq, now() FROM telemetry_history WHERE device_id = $1",
      [deviceId],
    );
    const refused = await call<{ fields: { message: string }[] }>("POST", "/admin/generator/operate", {
      deviceId,
      ...valid,
      on: true,
    });
    expect(refused.body.data.fields.map((f) => f.message)).toEqual([
      "The grid is connected, so the generator cannot be switched on",
    ]);
    expect((await call("GET", `/admin/generator/info?deviceId=${deviceId}`)).body.data).toMatchObject({
      gridConnected: true,
      settings: { on: false },
    });
  });
});
