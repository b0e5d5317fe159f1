import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";

type Tariff = {
  userId: number | null;
  isDefault: boolean;
  buy: { start: string; end: string; price: string }[];
  sell: unknown[];
};

describe("electricity prices and revenue", () => {
  let runtime: Runtime;
  let token: string;
  let userId: number;

  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const whole = (price: string) => [{ start: "00:00", end: "23:59", price }];

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    const { rows } = await runtime.db.query<{ id: number }>(
      "INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type) VALUES (1, 'price-owner', 'x', 'Owner', 2) RETURNING id",
    );
    userId = rows[0]?.id as number;
  });
  afterAll(() => runtime.close());

  it("falls back to the default tariff and keeps a user's own", async () => {
    expect(
      (await call("POST", "/admin/electricity/price/save", { userId: null, buy: whole("0.3"), sell: whole("0.1") })).status,
    ).toBe(200);
    const fallback = await call<Tariff>("GET", `/admin/electricity/price?userId=${userId}`);
    expect(fallback.body.data).toMatchObject({
      userId: null,
      isDefault: true,
      buy: [{ start: "00:00", end: "23:59", price: "0.3" }],
    });
    const buy = [
      { start: "00:00", end: "07:00", price: "0.12" },
      { start: "07:00", end: "23:59", price: "0.3512345" },
    ];
    const own = await call<Tariff>("POST", "/admin/electricity/price/save", { userId, buy, sell: whole("0.08") });
    expect(own.body.data).toMatchObject({ userId, isDefault: false, buy });
  });

  it("refuses every generated broken tariff with the rule's message and keeps the stored one", async () => {
    const stored = JSON.stringify((await call<Tariff>("GET", `/admin/electricity/price?userId=${userId}`)).body.data);
    const broken = fc.oneof(
      // overlap
      fc.constant({
        buy: [
          { start: "00:00", end: "13:00", price: "1" },
          { start: "12:00", end: "23:59", price: "1" },
        ],
        msg: "There is an overlap in the time periods. Please check!",
      }),
      // not the whole day
      fc.integer({ min: 1, max: 22 }).map((h) => ({
        buy: [{ start: "00:00", end: `${String(h).padStart(2, "0")}:00`, price: "1" }],
        msg: "The time periods must cover the whole day, 00:00-23:59",
      })),
      // price too high
      fc.integer({ min: 100, max: 10_000 }).map((p) => ({ buy: whole(String(p)), msg: "The price must be below 100" })),
      // too many decimals
      fc
        .integer({ min: 1, max: 99_999_999 })
        .map((f) => ({ buy: whole(`0.${String(f).padStart(8, "0")}`), msg: "The price may have at most 7 decimals" })),
      // end before start
      fc.constant({
        buy: [{ start: "12:00", end: "11:00", price: "1" }],
        msg: "The start time cannot be greater than or equal to the end time. Please check!",
      }),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ buy, msg }) => {
        const answer = await call<{ fields: { message: string }[] }>("POST", "/admin/electricity/price/save", {
          userId,
          buy,
          sell: whole("0.1"),
        });
        expect(answer.status).toBe(400);
        expect(answer.body.data.fields.map((f) => f.message)).toContain(msg);
        expect(JSON.stringify((await call<Tariff>("GET", `/admin/electricity/price?userId=${userId}`)).body.data)).toBe(stored);
      }),
      { numRuns: 30 },
    );
  });

  it('answers "No user bound, price setting unavailable." for a device without a user, and prices revenue at the tariff', async () => {
    const unbound = await registerDevice(runtime.db, { sn: uniqueSerial("NOU"), phaseType: 2, timeZone: "UTC" });
    const refused = await call("GET", `/admin/electricity/price/device?deviceId=${unbound.id}`);
    expect(refused.body.msg).toBe("No user bound, price setting unavailable.");

    const d = await registerDevice(runtime.db, { sn: uniqueSerial("REV"), phaseType: 2, timeZone: "UTC" });
    await runtime.db.query("UPDATE device SET owner_user_id = $2 WHERE id = $1", [d.id, userId]);
    const day = new Date().toISOString().slice(0, 10);
    // Two readings this morning at 06:00 and 06:30 UTC: 2 kWh bought and 1 kWh sold in between.
    for (const [time, buy, sell] of [
      ["06:00", 1, 0.5],
      ["06:30", 3, 1.5],
    ] as const) {
      await runtime.db.query(
        "INSERT INTO telemetry_history (device_id, ts, seq, buy_today, sell_today, blocks) VALUES ($1, $2, 1, $3, $4, '\\x')",
        [d.id, `${day}T${time}:00Z`, buy, sell],
      );
    }
    const revenue = async () =>
      (
        await call<{ days: { buyKwh: number; sellKwh: number; revenue: number }[] }>(
          "GET",
          `/admin/device/revenue?deviceId=${d.id}&startDate=${day}&endDate=${day}`,
        )
      ).body.data.days[0];
    // First reading counts its day's counters so far (1 kWh, 0.5 kWh), the second the growth.
    expect(await revenue()).toMatchObject({ buyKwh: 3, sellKwh: 1.5, revenue: Math.round((1.5 * 0.08 - 3 * 0.12) * 1e4) / 1e4 });
    await call("POST", "/admin/electricity/price/save", { userId, buy: whole("0.5"), sell: whole("0.2") });
    expect(await revenue()).toMatchObject({ revenue: Math.round((1.5 * 0.2 - 3 * 0.5) * 1e4) / 1e4 });
  });

  it("clears a device's profit: revenue counts again from the clear, and the clear is an acknowledged command record", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("CLR"), phaseType: 2, timeZone: "UTC" });
    await runtime.db.query("UPDATE device SET owner_user_id = $2 WHERE id = $1", [d.id, userId]);
    const reading = (at: Date, buy: number, sell: number) =>
      runtime.db.query(
        "INSERT INTO telemetry_history (device_id, ts, seq, buy_today, sell_today, blocks) VALUES ($1, $2, 1, $3, $4, '\\x')",
        [d.id, at.toISOString(), buy, sell],
      );
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    // A reading earlier today (not before midnight) and the revenue it gives.
    await reading(new Date(Math.max(now - 60_000, Date.parse(`${day}T00:00:30Z`))), 2, 1);
    const revenue = async () =>
      (
        await call<{ days: { buyKwh: number; sellKwh: number }[] }>(
          "GET",
          `/admin/device/revenue?deviceId=${d.id}&startDate=${day}&endDate=${day}`,
        )
      ).body.data.days;
    expect((await revenue())[0]).toMatchObject({ buyKwh: 2, sellKwh: 1 });

    const cleared = await call<{ kind: string; command: number; state: string }>("POST", "/admin/device/profit/clear", {
      deviceId: d.id,
    });
    expect(cleared.body.data).toMatchObject({ kind: "command", command: 100, state: "acknowledged" });
    expect(await revenue()).toEqual([]);
    // A reading after the clear counts only what grew since the reading before it.
    await reading(new Date(Date.now() + 1000), 2.5, 1.25);
    expect((await revenue())[0]).toMatchObject({ buyKwh: 0.5, sellKwh: 0.25 });
    const records = await call<{ records: { command: number | null }[] }>("GET", `/admin/param/set/records?deviceId=${d.id}`);
    expect(records.body.data.records.map((r) => r.command)).toEqual([100]);

    const unknown = await call("POST", "/admin/device/profit/clear", { deviceId: 999_999 });
    expect(unknown.status).toBe(404);
  });
});
