/**
 * The broker alone, measured the way the pipeline is, so that the ratio of the two compares like
 * with like: the same publishers and frames, a consumer that only counts and times them,
 * subscribed as the console is (MQTT 5, a shared subscription, QoS 1, the console's receive
 * maximum), in the bench's main thread as the bench's own console is.
 *
 * Two figures. Unthrottled: what the consumer received while the publishers sent as fast as they
 * could. On two cores that is not the broker's limit: the publishers' thread and Mosquitto take
 * the cores from the consumer, the broker's queue fills and the consumer's rate falls (7,232–7,540
 * frames/s received on one machine while the same broker took 13,700–18,300 frames/s from the
 * publishers). Sustained: the highest fixed rate at which the consumer received ≥ 97 % of what was
 * published, as it came (p99 from the frame's own time under 2 s), the pipeline's own rule; this
 * is the ratio's denominator.
 */
import mqtt from "mqtt";
import { runPublishers } from "./publishers.ts";
import { highestKept } from "./rate-ladder.ts";

export interface BrokerAloneOptions {
  url: string;
  run: string;
  connections: { clientId: string; serials: string[] }[];
  payload: Buffer;
  /** Seconds per measured rate. */
  seconds: number;
  say(line: string): void;
  /** The figure's suffix (the machine's load). */
  load(): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export async function brokerAlone(o: BrokerAloneOptions): Promise<{ unthrottled: number; sustained: number }> {
  const consumer = await mqtt.connectAsync(o.url, {
    clientId: `bench-raw-${o.run}`,
    protocolVersion: 5,
    clean: true,
    properties: { receiveMaximum: 65535 },
  });
  let received = 0;
  let latencies: number[] = [];
  consumer.on("message", (_topic, payload) => {
    received++;
    // The publishers stamp each frame's time at bytes 4–11 (publisher.worker.ts).
    latencies.push(Date.now() - (payload.readUInt32BE(4) * 0x100000000 + payload.readUInt32BE(8)));
  });
  await consumer.subscribeAsync(`$share/bench-raw-${o.run}/benchraw/${o.run}/+/telemetry`, { qos: 1 });
  const job = (rate: number, durationMs: number) => ({
    url: o.url,
    connections: o.connections,
    topic: (sn: string) => `benchraw/${o.run}/${sn}/telemetry`,
    payload: o.payload,
    binaryClock: true,
    window: 200,
    rate,
    durationMs,
  });
  /** Until nothing arrives for a second: the previous rate's queue is empty. */
  const drained = async () => {
    for (let last = -1, i = 0; i < 60 && received !== last; i++) {
      last = received;
      await sleep(1000);
    }
  };
  const measure = async (rate: number) => {
    await drained();
    latencies = [];
    const before = received;
    const t0 = performance.now();
    const sent = await runPublishers(job(rate, o.seconds * 1000));
    const elapsed = (performance.now() - t0) / 1000;
    const inWindow = received - before;
    await drained();
    const sorted = latencies.sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
    const published = sent.acked / elapsed;
    return { published, rate: inWindow / elapsed, p99, kept: inWindow / elapsed >= published * 0.97 && p99 < 2000 };
  };
  try {
    await runPublishers(job(0, 1000)); // warm-up
    const full = await measure(0);
    o.say(
      `broker alone, publishers unthrottled:      ${fmt(full.rate)} frames/s received (broker took ${fmt(full.published)}/s)${o.load()}`,
    );
    const best = await highestKept(Math.max(1000, Math.round(full.published / 500) * 500), 6, async (rate) => {
      const r = await measure(rate);
      o.say(
        `broker alone at a fixed ${fmt(rate).padStart(6)} frames/s:  published ${fmt(r.published)}/s, received ${fmt(r.rate)}/s, p99 ${fmt(r.p99)} ms${r.kept ? "" : "  (not kept up)"}${o.load()}`,
      );
      return r;
    });
    const sustained = best?.offered ?? full.rate;
    o.say(`broker alone, sustained (1 consumer as the console subscribes): ${fmt(sustained)} frames/s`);
    return { unthrottled: full.rate, sustained };
  } finally {
    await consumer.endAsync();
  }
}
