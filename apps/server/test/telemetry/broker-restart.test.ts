import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { MOSQUITTO, type OwnMosquitto, ownMosquitto } from "../helpers/mosquitto.ts";
import { type MqttTap, startMqttTap } from "../helpers/mqtt-tap.ts";
import { reportingDevice } from "../helpers/reporting-device.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

const DEVICES = 5;
const T0 = Date.now() - 6 * 3_600_000;

const readingOf = (topic: string, payload: Buffer) => `${topic.split("/")[2]}:${Number(payload.readBigUInt64BE(4))}`;

describe.skipIf(!MOSQUITTO)("an external Mosquitto with persistence, restarted during ingest", () => {
  let broker: OwnMosquitto;
  let tap: MqttTap;
  let runtime: Runtime;
  let devices: { id: number; sn: string }[];

  beforeAll(async () => {
    // Saved every second, so the kill below finds a saved session (and the clean stop saves too).
    broker = await ownMosquitto({ persistence: true, autosaveIntervalS: 1 });
    tap = await startMqttTap(broker.port);
    runtime = await startTestRuntime({
      MQTT_URL: tap.url,
      MQTT_CLIENT_ID: `ess-restart-${process.pid}`,
      MQTT_SHARED_GROUP: "ess-restart",
      MQTT_SESSION_EXPIRY_S: "600",
    });
    devices = [];
    for (let i = 0; i < DEVICES; i++)
      devices.push(await registerDevice(runtime.db, { sn: uniqueSerial("BRST"), phaseType: 2, timeZone: "UTC" }));
  });
  afterAll(async () => {
    await runtime?.close();
    await tap?.close();
    await broker?.stop("SIGTERM");
  });

  const stored = async () => {
    const { rows } = await runtime.db.query<{ reading: string }>(
      `SELECT d.sn || ':' || (extract(epoch FROM h.ts) * 1000)::bigint AS reading
         FROM telemetry_history h JOIN device d ON d.id = h.device_id WHERE d.id = ANY($1::bigint[])`,
      [devices.map((d) => d.id)],
    );
    return new Set(rows.map((r) => r.reading));
  };
  const consoleAcknowledged = () =>
    tap.acknowledged.filter((a) => a.topic.endsWith("/telemetry")).map((a) => readingOf(a.topic, a.payload));

  /** Devices report, the broker goes down with `signal` and comes back; resolves with what each side acknowledged. */
  async function restartDuringIngest(signal: "SIGTERM" | "SIGKILL", from: number) {
    const before = (await stored()).size;
    const fleet = devices.map((d, i) => reportingDevice(broker.url, d, { from, reconnectMs: 2000 + i * 200 }));
    await expect.poll(async () => (await stored()).size, { timeout: 10_000 }).toBeGreaterThan(before + 20);
    await broker.stop(signal);
    await broker.start();
    // Ingest resumes: a reading first sent after the broker is back is stored within 5 s.
    const after = fleet.map((f) => f.next());
    await expect
      .poll(
        async () => {
          const now = await stored();
          return devices.some((d, i) =>
            [...now].some((r) => r.startsWith(`${d.sn}:`) && Number(r.split(":")[1]) >= (after[i] ?? 0)),
          );
        },
        { timeout: 5000, interval: 100 },
      )
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await Promise.all(fleet.map((f) => f.finish()));
    return fleet.flatMap((f) => [...f.acknowledged]);
  }

  /** The readings of `expected` not stored, once the last deliveries had time to commit. */
  async function missing(expected: string[]) {
    let gone: string[] = [];
    await expect
      .poll(
        async () => {
          const now = await stored();
          gone = expected.filter((r) => !now.has(r));
          return gone.length;
        },
        { timeout: 5000 },
      )
      .toBe(0)
      .catch(() => {});
    return gone;
  }

  it("after a clean stop, resumes within 5 s and stores every reading the broker acknowledged", async () => {
    const brokerAcknowledged = await restartDuringIngest("SIGTERM", T0);
    expect(await missing(brokerAcknowledged)).toEqual([]);
    expect(await missing(consoleAcknowledged())).toEqual([]);
    expect(tap.protocolErrors).toEqual([]);
  }, 25_000);

  it("after kill -9 with a saved session, resumes within 5 s and stores every reading the console acknowledged", async () => {
    await restartDuringIngest("SIGKILL", T0 + 3_600_000);
    expect(await missing(consoleAcknowledged())).toEqual([]);
    expect(tap.protocolErrors).toEqual([]);
  }, 25_000);
});
