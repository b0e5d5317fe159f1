import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay } from "../../src/modules/telemetry/local-day.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, testBrokers, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained, manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

const ZONE = "Europe/Rome";
const HOUR = 3_600_000;
const STEP = 15 * 60_000;

/** The first instant of local day `day` (searching hour by hour around UTC midnight). */
function startOfLocalDay(day: string): number {
  let t = Date.parse(`${day}T00:00:00Z`) - 14 * HOUR;
  while (localDay(t, ZONE) !== day) t += 15 * 60_000;
  return t;
}

/** The last spring-forward (23 h) and fall-back (25 h) days of the past year in ZONE. */
function recentDstDays(): { day: string; hours: number }[] {
  const found = new Map<number, string>();
  // Step from UTC noon: a step of 24 h from a late-evening instant would jump over a 23-hour day.
  const noon = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR + 12 * HOUR;
  for (let t = noon - 366 * 24 * HOUR; t < noon - 3 * 24 * HOUR; t += 24 * HOUR) {
    const day = localDay(t, ZONE);
    const next = localDay(startOfLocalDay(day) + 26 * HOUR, ZONE);
    const hours = Math.round((startOfLocalDay(next) - startOfLocalDay(day)) / HOUR);
    if (hours !== 24) found.set(hours, day);
  }
  return [...found].map(([hours, day]) => ({ day, hours }));
}

describe.each(testBrokers())("daylight-saving days through the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  beforeAll(async () => {
    runtime = await startTestRuntime(env);
    token = await signIn(runtime.app);
  });
  afterAll(() => runtime.close());

  it("counts 23- and 25-hour days whole, with each day's energy from the device's own counters", async () => {
    const dstDays = recentDstDays();
    expect(dstDays.map((d) => d.hours).sort()).toEqual([23, 25]);
    const device = await registerDevice(runtime.db, { sn: uniqueSerial("DST"), phaseType: 1, timeZone: ZONE });
    const sim = await manualDevice(runtime, device, "single", "rome");
    try {
      for (const { day, hours } of dstDays) {
        // The day before, the change day and the day after, one reading every 15 minutes.
        const before = localDay(startOfLocalDay(day) - HOUR, ZONE);
        const start = startOfLocalDay(before);
        const end = startOfLocalDay(localDay(startOfLocalDay(day) + (hours + 1) * HOUR + 24 * HOUR, ZONE));
        const expected = new Map<string, { frames: number; today: Record<string, number> }>();
        const sent: Promise<void>[] = [];
        for (let t = start; t < end; t += STEP) {
          sent.push(sim.publishFrame(t)); // the physics advances now; the publication completes later
          const today = sim.brain.plant.state.today;
          const entry = expected.get(localDay(t, ZONE)) ?? { frames: 0, today: {} };
          entry.frames++;
          entry.today = Object.fromEntries(Object.entries(today).map(([k, v]) => [k, Math.round(v * 10) / 10]));
          expected.set(localDay(t, ZONE), entry);
        }
        await Promise.all(sent);
        expect(expected.get(day)?.frames).toBe(hours * 4);

        const days = [...expected.keys()].sort();
        const url = `/admin/lsydeviceelectricitydata/list?deviceId=${device.id}&type=0&startDate=${days[0]}&endDate=${days.at(-1)}`;
        const auth = { authorization: `Bearer ${token}` };
        // Acknowledged by an external broker is not yet stored: wait until the console stored every
        // reading of these days, then take them into the daily energy now.
        const stored = async () =>
          (
            await runtime.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM telemetry_history WHERE device_id = $1 AND ts >= to_timestamp($2 / 1000.0) AND ts < to_timestamp($3 / 1000.0)",
              [device.id, start, end],
            )
          ).rows[0]?.n;
        await expect.poll(stored, { timeout: 15_000 }).toBe(sent.length);
        await runtime.telemetry.rollup.flush();
        const records = (await runtime.app.inject({ method: "GET", url, headers: auth })).json().data.records as Record<
          string,
          number | string
        >[];
        for (const r of records) {
          const want = expected.get(r.period as string)?.today ?? {};
          for (const flow of ["pv", "load", "buy", "sell", "charge", "discharge"]) {
            expect(r[flow], `${r.period} ${flow}`).toBeCloseTo(want[flow] as number, 1);
          }
        }
        expect(Number(records.find((r) => r.period === day)?.load)).toBeGreaterThan(0);

        // Months and years are the sums of their days.
        const months = (await runtime.app.inject({ method: "GET", url: url.replace("type=0", "type=1"), headers: auth })).json()
          .data.records as Record<string, number | string>[];
        for (const m of months) {
          const days = records.filter((r) => String(r.period).startsWith(String(m.period)));
          expect(m.pv).toBeCloseTo(
            days.reduce((sum, r) => sum + Number(r.pv), 0),
            1,
          );
        }
        expect(months.reduce((n, m) => n + Number(m.load), 0)).toBeCloseTo(
          records.reduce((n, r) => n + Number(r.load), 0),
          1,
        );

        // The day's curve runs from local midnight to local midnight: 23 or 25 hours of readings.
        const curve = (
          await runtime.app.inject({
            method: "GET",
            url: `/admin/lsydevicepowerdata/curve?deviceId=${device.id}&date=${day}`,
            headers: auth,
          })
        ).json().data.points as { ts: number }[];
        expect(curve).toHaveLength(hours * 4);
        expect(localDay(curve[0]?.ts as number, ZONE)).toBe(day);
        expect(localDay(curve.at(-1)?.ts as number, ZONE)).toBe(day);
      }
    } finally {
      await sim.stop();
      await clearRetained(runtime, [device.sn]);
    }
  });
});
