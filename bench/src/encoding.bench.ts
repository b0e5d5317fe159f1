/**
 * Frame encodings through a broker: one full three-phase reading as named JSON, as JSON arrays
 * of address blocks, and as a binary register frame, each published at QoS 1 by devices in a
 * worker thread and consumed (parsed) by one subscriber, through aedes in this process and
 * through Mosquitto. Prints frames/s and sizes; bounded in time, loopback only.
 *
 *   npm run encoding -w @ess/bench -- [seconds=4] [mosquitto=mqtt://127.0.0.1:1883]
 */
import { createServer } from "node:net";
import { cpus } from "node:os";
import { decodeFrame } from "@ess/contracts";
import { Aedes } from "aedes";
import mqtt from "mqtt";
import { threePhaseFrames } from "./frames.ts";
import { runPublishers } from "./publishers.ts";

const seconds = Number(process.argv[2] ?? 4);
const mosquittoUrl = process.argv[3] ?? process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const run = `${process.pid}`;
const frames = threePhaseFrames();

async function startAedes(): Promise<{ url: string; close(): Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function measure(url: string, encoding: "named" | "addressBlocks" | "binary"): Promise<number> {
  const consumer = await mqtt.connectAsync(url, { clientId: `bench-sub-${run}`, protocolVersion: 4, clean: true });
  let received = 0;
  consumer.on("message", (_topic, payload) => {
    if (encoding === "binary") decodeFrame(payload);
    else JSON.parse(payload.toString());
    received++;
  });
  await consumer.subscribeAsync(`bench/${run}/+/telemetry`, { qos: 1 });
  const connections = Array.from({ length: 4 }, (_, i) => ({
    clientId: `bench-pub-${run}-${i}`,
    serials: Array.from({ length: 25 }, (_, d) => `SN${i}${d}`),
  }));
  const payload = encoding === "binary" ? frames.binary : frames[encoding];
  const job = {
    url,
    connections,
    topic: (sn: string) => `bench/${run}/${sn}/telemetry`,
    payload,
    binaryClock: false,
    window: 50,
    rate: 0,
  };
  await runPublishers({ ...job, durationMs: 500 }); // warm-up
  const before = received;
  const t0 = performance.now();
  await runPublishers({ ...job, durationMs: seconds * 1000 });
  // Count what arrived while publishing, plus the tail already acknowledged by the broker.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const elapsed = (performance.now() - t0 - 200) / 1000;
  await consumer.endAsync();
  return (received - before) / elapsed;
}

process.stdout.write(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}); ${frames.values} values per frame; ${seconds} s per case\n`,
);
const sizes = {
  named: Buffer.byteLength(frames.named),
  addressBlocks: Buffer.byteLength(frames.addressBlocks),
  binary: frames.binary.length,
};
const rows: string[] = [];
const aedes = await startAedes();
let mosquittoReachable = true;
try {
  const probe = await mqtt.connectAsync(mosquittoUrl, { reconnectPeriod: 0, connectTimeout: 2000 });
  await probe.endAsync();
} catch {
  mosquittoReachable = false;
}
for (const encoding of ["named", "addressBlocks", "binary"] as const) {
  const viaAedes = await measure(aedes.url, encoding);
  const viaMosquitto = mosquittoReachable ? await measure(mosquittoUrl, encoding) : Number.NaN;
  rows.push(
    `| ${encoding} | ${sizes[encoding].toLocaleString("en-US")} | ${Math.round(viaAedes).toLocaleString("en-US")} | ${
      mosquittoReachable ? Math.round(viaMosquitto).toLocaleString("en-US") : "n/a"
    } |`,
  );
}
await aedes.close();
process.stdout.write("\n| encoding | bytes/frame | frames/s via aedes | frames/s via Mosquitto |\n|---|---|---|---|\n");
process.stdout.write(`${rows.join("\n")}\n`);
