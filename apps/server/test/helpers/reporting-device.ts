import { baselineValues, blocksFromValues, encodeFrame, TELEMETRY_REGISTERS, telemetryLayout } from "@ess/contracts";
import mqtt from "mqtt";

/** A full three-phase frame; its reading time says which reading it is. */
export const fullFrame = (ts: number, seq: number) =>
  encodeFrame(
    { kind: "telemetry", ts, seq, requestId: 0, page: 0, flags: 0 },
    blocksFromValues(telemetryLayout("three"), baselineValues(TELEMETRY_REGISTERS.three)),
  );

/**
 * A device as the simulator behaves: a reading every 100 ms (reading k is for `from` + k s), kept
 * and sent again while the broker is away (mqtt.js holds unacknowledged publications),
 * reconnecting `reconnectMs` after a drop. `acknowledged` holds "{sn}:{reading time}" of every
 * reading the broker acknowledged.
 */
export function reportingDevice(url: string, d: { sn: string; secret?: string }, options: { from: number; reconnectMs: number }) {
  const client = mqtt.connect(url, {
    clientId: d.sn,
    ...(d.secret ? { username: d.sn, password: d.secret } : {}),
    clean: true,
    reconnectPeriod: options.reconnectMs,
    connectTimeout: 5000,
  });
  client.on("error", () => {});
  const acknowledged = new Set<string>();
  const sent: Promise<void>[] = [];
  let k = 0;
  const timer = setInterval(() => {
    const reading = k++;
    const ts = options.from + reading * 1000;
    sent.push(
      client.publishAsync(`ess/v1/${d.sn}/telemetry`, fullFrame(ts, reading), { qos: 1 }).then(
        () => void acknowledged.add(`${d.sn}:${ts}`),
        () => {},
      ),
    );
  }, 100);
  return {
    acknowledged,
    /** The reading time of the next reading. */
    next: () => options.from + k * 1000,
    /** Stops reporting; resolves once the broker acknowledged everything sent. */
    async finish() {
      clearInterval(timer);
      await Promise.all(sent);
      await client.endAsync();
    },
  };
}
