import type { ReminderMessage } from "@ess/contracts";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, testBroker, uniqueSerial } from "../helpers/devices.ts";
import { adminId, subscribeReminders, waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

const FLEET = 50;
const STORM_DEVICES = 10;
const WINDOW_S = 4;

/**
 * Storm control of live reminders, as a user with a console open sees it over STOMP: a fleet
 * raising one code, or coming back on line at once after a broker restart, makes a summary that
 * (with its follow-up at the window's end) counts every device of the window.
 */
describe.each(testBroker())("reminder storms on the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  let reminders: Awaited<ReturnType<typeof subscribeReminders>>;
  const fleet: { id: number; sn: string; secret: string }[] = [];
  let clients: MqttClient[] = [];

  /** The fleet's devices connect at once, each with its last will, and say they are online. */
  const connectFleet = () =>
    Promise.all(
      fleet.map(async (d) => {
        const client = await mqtt.connectAsync(runtime.brokerUrl, {
          clientId: d.sn,
          username: d.sn,
          password: d.secret,
          clean: true,
          reconnectPeriod: 0,
          connectTimeout: 10_000,
          will: { topic: `ess/v1/${d.sn}/status`, payload: Buffer.from("offline"), qos: 1, retain: true },
        });
        await client.publishAsync(`ess/v1/${d.sn}/status`, "online", { qos: 1, retain: true });
        return client;
      }),
    );
  const onlineCount = async () =>
    (
      await runtime.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM device WHERE id = ANY($1::bigint[]) AND online_status = 1",
        [fleet.map((d) => d.id)],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    runtime = await startTestRuntime({
      ...env,
      ESS_ALARM_CLEAR_HOLD_S: "0",
      ESS_ALARM_STORM_DEVICES: String(STORM_DEVICES),
      ESS_ALARM_STORM_WINDOW_S: String(WINDOW_S),
    });
    token = await signIn(runtime.app);
    for (let i = 0; i < FLEET; i++) {
      fleet.push(await registerDevice(runtime.db, { sn: uniqueSerial("STRM"), phaseType: 2 }));
    }
    clients = await connectFleet();
    await waitUntil(async () => (await onlineCount()) === FLEET, 10_000, "the fleet online");
    reminders = await subscribeReminders(runtime, token, 1, await adminId(runtime));
  });
  afterAll(async () => {
    await reminders?.close();
    await Promise.all(clients.map((c) => c.endAsync()));
    await clearRetained(
      runtime,
      fleet.map((d) => d.sn),
    );
    await runtime.close();
  });

  const of = (kinds: string[], code: number | null = null) =>
    reminders.received.filter((r) => r.notice && kinds.includes(r.notice.kind) && (code === null || r.notice.code === code));
  const mostCounted = (list: ReminderMessage[]) => Math.max(0, ...list.map((r) => r.notice?.devices ?? 0));

  it("counts every one of 50 devices raising one code within a second in the reminders of that window", async () => {
    // Five waves of ten devices, 200 ms apart: one second in all (each device waits for its own acknowledgement only).
    const sent: Promise<unknown>[] = [];
    for (let wave = 0; wave < 5; wave++) {
      for (let i = wave * 10; i < wave * 10 + 10; i++) {
        sent.push(
          (clients[i] as MqttClient).publishAsync(
            `ess/v1/${fleet[i]?.sn}/alarm`,
            JSON.stringify({ v: 1, ts: Date.now(), key: "TP_0X04_4639", bit: 3, state: "occur", code: 2001, level: 2 }),
            { qos: 1 },
          ),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all(sent);
    // The window's summaries (the follow-up comes at its end) count all of them.
    await expect.poll(() => mostCounted(of(["storm"], 2001)), { timeout: (WINDOW_S + 8) * 1000, interval: 250 }).toBe(FLEET);
    const singles = of(["alarm"], 2001);
    // Reminders one by one only until the storm was recognised; every one of them a device of the fleet.
    expect(singles.length).toBeLessThan(STORM_DEVICES);
    expect(singles.every((r) => fleet.some((d) => d.sn === r.notice?.sn))).toBe(true);
    const storms = of(["storm"], 2001);
    expect(storms[0]?.notice).toMatchObject({
      kind: "storm",
      code: 2001,
      windowS: WINDOW_S,
      info: { "en-US": "Cell overvoltage warning" },
    });
    expect(storms.at(-1)?.content).toMatch(/50 devices/);
    const stored = await runtime.db.query("SELECT 1 FROM device_alarm WHERE code = 2001 AND cleared_at IS NULL");
    expect(stored.rowCount).toBe(FLEET);
  });

  it("summarises a whole fleet going off and coming back on line at once (a broker restart) instead of a reminder per device", async () => {
    reminders.received.length = 0;
    // The connections die without a goodbye: the broker publishes every device's will.
    for (const c of clients) c.stream.destroy();
    await expect.poll(onlineCount, { timeout: 15_000 }).toBe(0);
    clients = await connectFleet();
    await expect.poll(onlineCount, { timeout: 15_000 }).toBe(FLEET);

    await expect.poll(() => mostCounted(of(["offlineStorm"])), { timeout: (WINDOW_S + 8) * 1000, interval: 250 }).toBe(FLEET);
    await expect.poll(() => mostCounted(of(["onlineStorm"])), { timeout: (WINDOW_S + 8) * 1000, interval: 250 }).toBe(FLEET);
    expect(of(["offline"]).length).toBeLessThan(STORM_DEVICES);
    expect(of(["online"]).length).toBeLessThan(STORM_DEVICES);
    expect(of(["onlineStorm"]).at(-1)?.content).toMatch(/50 devices/);
  });
});
