import {
  baselineValues,
  blocksFromValues,
  encodeFrame,
  type ReminderMessage,
  TELEMETRY_REGISTERS,
  telemetryLayout,
} from "@ess/contracts";
import { Client } from "@stomp/stompjs";
import mqtt, { type MqttClient } from "mqtt";
import { expect } from "vitest";
import { registerDevice, uniqueSerial } from "./devices.ts";
import { ownMosquitto } from "./mosquitto.ts";
import { startMqttTap } from "./mqtt-tap.ts";
import { startTestRuntime } from "./runtime.ts";
import { metric } from "./sim.ts";

const frame = (ts: number) =>
  encodeFrame(
    { kind: "telemetry", ts, seq: 0, requestId: 0, page: 0, flags: 0 },
    blocksFromValues(telemetryLayout("three"), baselineValues(TELEMETRY_REGISTERS.three)),
  );

/**
 * A console on a Mosquitto of the test's own, behind a tap that can make the broker go silent
 * (mqtt-tap.ts), with a stall period of 1 s and `devices` registered devices that report every
 * 200 ms once `startReporting()` is called.
 */
export async function startWatchedConsole(name: string, devices: number) {
  const broker = await ownMosquitto({ persistence: false });
  const tap = await startMqttTap(broker.port);
  const runtime = await startTestRuntime({
    MQTT_URL: tap.url,
    MQTT_CLIENT_ID: `ess-${name}-${process.pid}`,
    MQTT_SHARED_GROUP: `ess-${name}`,
    MQTT_SESSION_EXPIRY_S: "60",
    ESS_INGEST_STALL_S: "1",
    ESS_DEVICE_OFFLINE_AFTER_S: "10",
  });
  const fleet: { id: number; sn: string }[] = [];
  for (let i = 0; i < devices; i++)
    fleet.push(await registerDevice(runtime.db, { sn: uniqueSerial("WDOG"), phaseType: 2, timeZone: "UTC" }));
  const ids = fleet.map((d) => d.id);
  const clients: MqttClient[] = [];
  const consoles: Client[] = [];
  let reporting: NodeJS.Timeout | null = null;
  let sentUpTo = 0;

  return {
    broker,
    tap,
    runtime,
    devices: fleet,
    clientId: `ess-${name}-${process.pid}`,
    /** Devices connect and report every 200 ms (readings an hour back, one reading time per report). */
    async startReporting() {
      const t0 = Date.now() - 3_600_000;
      let k = 0;
      for (const d of fleet) clients.push(await mqtt.connectAsync(broker.url, { clientId: d.sn, reconnectPeriod: 0 }));
      reporting = setInterval(() => {
        sentUpTo = t0 + ++k * 1000;
        for (const [i, c] of clients.entries())
          void c.publishAsync(`ess/v1/${fleet[i]?.sn}/telemetry`, frame(sentUpTo), { qos: 1 }).catch(() => {});
      }, 200);
    },
    /** The reading time the devices reported last. */
    sentUpTo: () => sentUpTo,
    readiness: async () => (await runtime.app.inject({ method: "GET", url: "/readyz" })).json(),
    stalls: () => metric(runtime, "ess_ingest_stalls_total"),
    onlineCount: async () =>
      (
        await runtime.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM device WHERE id = ANY($1::bigint[]) AND online_status = 1",
          [ids],
        )
      ).rows[0]?.n,
    storedFrom: async (ts: number) =>
      (
        await runtime.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM telemetry_history WHERE device_id = ANY($1::bigint[]) AND ts >= $2",
          [ids, new Date(ts)],
        )
      ).rows[0]?.n,
    /** A console's reminder subscription, as the web opens it. */
    async reminders(token: string, userId: number) {
      const received: ReminderMessage[] = [];
      const client = new Client({
        brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
        connectHeaders: { Authorization: `Bearer ${token}` },
        reconnectDelay: 0,
      });
      consoles.push(client);
      await new Promise<void>((resolve) => {
        client.onConnect = () => resolve();
        client.activate();
      });
      const destination = `/user/1/${userId}/reminders`;
      client.subscribe(destination, (m) => received.push(JSON.parse(m.body) as ReminderMessage));
      await expect.poll(() => runtime.realtime.subscriberCount(destination)).toBe(1);
      return received;
    },
    async close() {
      if (reporting) clearInterval(reporting);
      for (const c of consoles) await c.deactivate();
      for (const c of clients) await c.endAsync(true);
      await runtime.close();
      await tap.close();
      await broker.stop("SIGTERM");
    },
  };
}

export type WatchedConsole = Awaited<ReturnType<typeof startWatchedConsole>>;
