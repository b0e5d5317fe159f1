/**
 * Publishing devices in a worker thread, so the process under measurement keeps its own core.
 * Each connection publishes QoS 1 frames with a bounded number awaiting PUBACK, round-robin over
 * its devices' topics, stamping the current time (and a sequence number) into each frame.
 */
import { parentPort, workerData } from "node:worker_threads";
import mqtt from "mqtt";

export interface PublisherJob {
  url: string;
  /** One entry per connection: its client id/credentials and the serial numbers it publishes for. */
  connections: { clientId: string; username?: string; password?: string; serials: string[] }[];
  topic: (sn: string) => string;
  /** Payload template; for binary frames the time and sequence are written at bytes 4–15. */
  payload: Uint8Array | string;
  binaryClock: boolean;
  window: number;
  durationMs: number;
  /** Frames per second for all connections together; 0: as fast as the window allows. */
  rate: number;
}

type Job = Omit<PublisherJob, "topic"> & { topicPrefix: string; topicLeaf: string };

async function run(job: Job) {
  const clients = await Promise.all(
    job.connections.map((c) =>
      mqtt.connectAsync(job.url, {
        clientId: c.clientId,
        username: c.username,
        password: c.password,
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 0,
      }),
    ),
  );
  const template = typeof job.payload === "string" ? job.payload : Buffer.from(job.payload);
  let sent = 0;
  let acked = 0;
  let seq = 0;
  const started = Date.now();
  const deadline = started + job.durationMs;
  // Rate-limited runs publish in 10 ms ticks (what fell due since the last tick), so timer
  // granularity does not lower the rate; unlimited runs keep `window` publications outstanding.
  const perConnectionRate = job.rate > 0 ? job.rate / clients.length : 0;
  await Promise.all(
    clients.map(async (client, ci) => {
      const serials = job.connections[ci]?.serials ?? [];
      let inflight = 0;
      let next = 0;
      let allowance = 0;
      let last = Date.now();
      const publishOne = (done: () => void) => {
        const sn = serials[next++ % serials.length] as string;
        let payload: Buffer | string = template;
        if (typeof template !== "string" && job.binaryClock) {
          payload = Buffer.from(template);
          const now = Date.now();
          payload.writeUInt32BE(Math.floor(now / 0x100000000), 4);
          payload.writeUInt32BE(now % 0x100000000, 8);
          payload.writeUInt32BE(seq++ >>> 0, 12);
        }
        inflight++;
        sent++;
        client.publish(`${job.topicPrefix}${sn}${job.topicLeaf}`, payload, { qos: 1 }, () => {
          inflight--;
          acked++;
          done();
        });
      };
      await new Promise<void>((finish) => {
        const settle = () => {
          if (Date.now() >= deadline && inflight === 0) finish();
        };
        if (perConnectionRate === 0) {
          const pump = () => {
            while (inflight < job.window && Date.now() < deadline) publishOne(pump);
            settle();
          };
          pump();
          return;
        }
        const tick = setInterval(() => {
          const now = Date.now();
          allowance = Math.min(allowance + ((now - last) * perConnectionRate) / 1000, perConnectionRate);
          last = now;
          while (allowance >= 1 && inflight < job.window && now < deadline) {
            allowance--;
            publishOne(settle);
          }
          if (now >= deadline) {
            clearInterval(tick);
            settle();
          }
        }, 10);
      });
    }),
  );
  await Promise.all(clients.map((c) => c.endAsync()));
  parentPort?.postMessage({ sent, acked, ms: Date.now() - started });
}

await run(workerData as Job);
