import { Worker } from "node:worker_threads";
import type { PublisherJob } from "./publisher.worker.ts";

/** Runs the publishers of a job in a worker thread; resolves with what they sent and got acknowledged. */
export function runPublishers(job: PublisherJob): Promise<{ sent: number; acked: number; ms: number }> {
  const probe = job.topic("\u0000");
  const [topicPrefix, topicLeaf] = probe.split("\u0000") as [string, string];
  const { topic: _topic, ...rest } = job;
  const worker = new Worker(new URL("./publisher.worker.ts", import.meta.url), {
    workerData: { ...rest, topicPrefix, topicLeaf },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (result) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}
