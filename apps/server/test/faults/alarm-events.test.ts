import type { AlarmRecord, Page } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, testBroker, uniqueSerial } from "../helpers/devices.ts";
import { adminId, subscribeReminders } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained, manualDevice, metric, rawDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

const HOLD_S = 2;
const HOUR = 3_600_000;

/**
 * Alarm events as devices send them, right or wrong. A device's clock is a claim: events are
 * bounded like readings, and no device time holds an alarm open (or a device in status 3) longer
 * than the clear hold on the console's clock. A code the fault catalogue lacks is an unknown fault.
 */
describe.each(testBroker())("alarm events on the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  const serials: string[] = [];
  const sims: VirtualDevice[] = [];
  const raws: MqttClient[] = [];

  beforeAll(async () => {
    runtime = await startTestRuntime({ ...env, ESS_ALARM_CLEAR_HOLD_S: String(HOLD_S) });
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((d) => d.stop()));
    await Promise.all(raws.map((c) => c.endAsync()));
    await clearRetained(runtime, serials);
    await runtime.close();
  });

  /** A simulated three-phase device reporting on the console's clock (frames when told). */
  async function simulated(prefix: string) {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2, timeZone: "Europe/Rome" });
    serials.push(d.sn);
    const sim = await manualDevice(runtime, d, "three", "rome");
    sims.push(sim);
    return { ...d, sim };
  }
  /** A device connection that publishes hand-made alarm events. */
  async function raw(prefix: string) {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2 });
    serials.push(d.sn);
    const client = await rawDevice(runtime, d);
    raws.push(client);
    const event = (e: Record<string, unknown>) =>
      client.publishAsync(`ess/v1/${d.sn}/alarm`, JSON.stringify({ v: 1, key: "TP_0X04_4639", bit: 3, level: 2, ...e }), {
        qos: 1,
      });
    return { ...d, event };
  }

  const alarms = async (query: Record<string, string | number | boolean>, language = "en-US"): Promise<Page<AlarmRecord>> => {
    const res = await runtime.app.inject({
      method: "GET",
      url: "/admin/lsydevicealarm/page",
      query: Object.fromEntries(Object.entries({ size: 100, ...query }).map(([k, v]) => [k, String(v)])),
      headers: { authorization: `Bearer ${token}`, "accept-language": language },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const openCodes = async (deviceId: number) => (await alarms({ deviceId, open: true })).records.map((a) => a.code);
  const status = async (id: number) =>
    (await runtime.db.query<{ status: number }>("SELECT status FROM device WHERE id = $1", [id])).rows[0]?.status;
  const storedEvents = async (id: number) =>
    (await runtime.db.query("SELECT 1 FROM device_alarm_event WHERE device_id = $1", [id])).rowCount;
  const badTime = () => metric(runtime, "ess_alarm_events_total", '{outcome="bad_time"}');

  /** Publishes readings on the console's clock every 200 ms until `done` holds; resolves with how long that took. */
  async function reportUntil(sim: VirtualDevice, done: () => Promise<boolean>, limitMs: number) {
    const started = Date.now();
    while (Date.now() - started < limitMs) {
      await sim.publishFrame(Date.now());
      if (await done()) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return Number.POSITIVE_INFINITY;
  }

  it("refuses an event dated an hour ahead, and closes the alarm within the clear hold once clear readings follow", async () => {
    const d = await simulated("CLKH");
    const refusedBefore = await badTime();
    // A wrong clock: the event says an hour ahead; the readings carry the console's time.
    await d.sim.injectFault(2102, Date.now() + HOUR);
    await expect.poll(badTime).toBe(refusedBefore + 1);
    expect(await storedEvents(d.id)).toBe(0);
    await reportUntil(d.sim, async () => (await openCodes(d.id)).includes(2102), 10_000);
    expect(await status(d.id)).toBe(3);
    const [open] = (await alarms({ deviceId: d.id, open: true })).records;
    expect(new Date(open?.occurredAt ?? 0).getTime()).toBeLessThanOrEqual(Date.now());

    // The fault goes; the clear event is an hour ahead too; clear readings follow.
    await d.sim.clearFault(2102, Date.now() + HOUR);
    const took = await reportUntil(d.sim, async () => (await openCodes(d.id)).length === 0, 20_000);
    // The hold, plus a reading's and a sweep's delay: not an hour.
    expect(took).toBeLessThan(HOLD_S * 1000 + 4000);
    expect(await status(d.id)).toBe(0);
  });

  it("takes a time ahead within the allowance as the time it arrived, so an earlier-dated clear counts", async () => {
    const d = await simulated("CLKA");
    // Nine minutes ahead: accepted, stored, but believed only up to its arrival.
    const sentAt = Date.now();
    await d.sim.injectFault(2001, sentAt + 9 * 60_000);
    await expect.poll(() => openCodes(d.id)).toEqual([2001]);
    expect(await storedEvents(d.id)).toBe(1);
    const [open] = (await alarms({ deviceId: d.id, open: true })).records;
    expect(new Date(open?.occurredAt ?? 0).getTime()).toBeLessThanOrEqual(Date.now());

    // Its clock is put right: the clear event and readings carry earlier times than the alarm's event.
    await d.sim.clearFault(2001, Date.now());
    const took = await reportUntil(d.sim, async () => (await openCodes(d.id)).length === 0, 20_000);
    expect(took).toBeLessThan(HOLD_S * 1000 + 4000);
    const [closed] = (await alarms({ deviceId: d.id, faultCode: 2001 })).records;
    expect(closed?.status).toBe("disappear");
  });

  it("refuses events older than the history keeps, and keeps a late event of a closed alarm from reopening it", async () => {
    const d = await raw("CLKP");
    const refusedBefore = await badTime();
    await d.event({ ts: Date.now() - 500 * 24 * HOUR, state: "occur", code: 2004 });
    await expect.poll(badTime).toBe(refusedBefore + 1);
    expect(await storedEvents(d.id)).toBe(0);
    expect(await openCodes(d.id)).toEqual([]);

    const raisedAt = Date.now();
    await d.event({ ts: raisedAt, state: "occur", code: 2004 });
    await expect.poll(() => openCodes(d.id)).toEqual([2004]);
    await d.event({ ts: Date.now(), state: "disappear", code: 2004 });
    // A quiet device: the console's clock closes it.
    await expect.poll(() => openCodes(d.id), { timeout: HOLD_S * 1000 + 4000 }).toEqual([]);
    // Sent late (kept while offline), dated while the alarm was open: history, not a new alarm.
    await d.event({ ts: raisedAt + 1, state: "occur", code: 2004, buffered: true });
    await expect.poll(() => storedEvents(d.id)).toBe(3);
    await runtime.faults.detector.settled();
    expect((await alarms({ deviceId: d.id, faultCode: 2004 })).total).toBe(1);
    // The fault back, now: a new alarm.
    await d.event({ ts: Date.now(), state: "occur", code: 2004 });
    await expect.poll(async () => (await alarms({ deviceId: d.id, faultCode: 2004 })).total).toBe(2);
  });

  it("shows a code the catalogue lacks as an unknown fault with its code, in lists, exports and reminders, and counts it", async () => {
    const reminders = await subscribeReminders(runtime, token, 1, await adminId(runtime));
    try {
      const counted = await metric(runtime, "ess_alarm_unknown_code_events_total");
      const d = await raw("UNKC");
      await d.event({ ts: Date.now(), state: "occur", code: 4242 });
      await expect.poll(() => openCodes(d.id)).toEqual([4242]);
      expect(await metric(runtime, "ess_alarm_unknown_code_events_total")).toBe(counted + 1);

      const [en] = (await alarms({ deviceId: d.id, open: true })).records;
      expect(en).toMatchObject({
        code: 4242,
        info: "Unknown fault (code 4242)",
        causes: "The device reported code 4242, which is not in the fault catalogue.",
      });
      expect(en?.remedy).toMatch(/4242.*fault catalogue/);
      const [ja] = (await alarms({ deviceId: d.id, open: true }, "ja")).records;
      expect(ja?.info).toBe("不明な故障（コード 4242）");
      const csv = await runtime.app.inject({
        method: "GET",
        url: `/admin/lsydevicealarm/export?deviceId=${d.id}`,
        headers: { authorization: `Bearer ${token}`, "accept-language": "es" },
      });
      expect(csv.body).toContain("Fallo desconocido (código 4242)");

      await expect.poll(() => reminders.received.filter((r) => r.notice?.code === 4242).length).toBe(1);
      const notice = reminders.received.find((r) => r.notice?.code === 4242)?.notice;
      expect(notice).toMatchObject({ kind: "alarm", sn: d.sn, code: 4242 });
      expect(notice?.info).toMatchObject({
        "en-US": "Unknown fault (code 4242)",
        it: "Guasto sconosciuto (codice 4242)",
        es: "Fallo desconocido (código 4242)",
        ja: "不明な故障（コード 4242）",
        "zh-CN": "未知故障（故障码 4242）",
      });
    } finally {
      await reminders.close();
    }
  });
});
