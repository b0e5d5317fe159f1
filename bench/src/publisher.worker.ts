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
  const perConnectionInterval = job.rate > 0 ? (1000 * clients.length) / job.rate : 0;
  await Promise.all(
    clients.map(async (client, ci) => {
      const serials = job.connections[ci]?.serials ?? [];
      let inflight = 0;
      let next = 0;
      let due = Date.now();
      await new Promise<void>((done) => {
        const pump = () => {
          while (inflight < job.window && Date.now() < deadline) {
            if (perConnectionInterval > 0) {
              if (Date.now() < due) {
                setTimeout(pump, Math.max(1, due - Date.now()));
                return;
              }
              due += perConnectionInterval;
            }
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
              if (Date.now() < deadline) pump();
              else if (inflight === 0) done();
            });
          }
          if (Date.now() >= deadline && inflight === 0) done();
        };
        pump();
      });
    }),
  );
  await Promise.all(clients.map((c) => c.endAsync()));
  parentPort?.postMessage({ sent, acked, ms: Date.now() - started });
}

await run(workerData as Job);
