/**
 * What the ingest bench reads from the consoles it measures: frames stored so far, frames received
 * and not yet stored, and publish-to-queryable latencies (a frame's own time, set by its publisher,
 * to when it can be read back).
 */
import type { Db } from "@ess/server/internal/db/db.ts";
import { openPostgres } from "@ess/server/internal/db/postgres.driver.ts";
import type { Runtime } from "@ess/server/internal/runtime.ts";

export interface StoreProbe {
  /** Frames stored so far by the consoles measured. */
  stored(): Promise<number>;
  /** Frames they have received and not yet stored. */
  queued(): Promise<number>;
  /** Starts collecting latencies (ms); the function returned stops and hands them over. */
  latencies(): Promise<() => Promise<number[]>>;
  /** The bench's own console's frames of the last latencies() timed exactly, where the probe reads others too. */
  ownLatencies?(): number[];
  /** PostgreSQL backends of the probe itself, left out of the pipeline's CPU. */
  backends: number[];
  close(): Promise<void>;
}

/** Latencies of frames committed in `runtime`. */
function committedLatencies(runtime: Runtime) {
  const latencies: number[] = [];
  const onFrames = (batch: readonly { ts: number }[], at: number) => {
    for (const f of batch) latencies.push(at - f.ts);
  };
  runtime.telemetry.events.on("frames", onFrames);
  return () => {
    runtime.telemetry.events.off("frames", onFrames as never);
    return latencies;
  };
}

/**
 * The console in the bench's own process, through its events: every frame's latency to its
 * commit, exactly (what the bench has always measured).
 */
export function inProcessProbe(runtime: Runtime): StoreProbe {
  let stored = 0;
  const count = (batch: readonly unknown[]) => {
    stored += batch.length;
  };
  runtime.telemetry.events.on("frames", count);
  return {
    stored: async () => stored,
    queued: async () => runtime.telemetry.ingest.queued(),
    latencies: async () => {
      const stop = committedLatencies(runtime);
      return async () => stop();
    },
    backends: [],
    close: async () => {
      runtime.telemetry.events.off("frames", count as never);
    },
  };
}

/** The sum of one metric's samples (all label sets matching `labels`) in Prometheus text. */
function metricSum(text: string, name: string, labels = ""): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || (line[name.length] !== " " && line[name.length] !== "{")) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

/**
 * Consoles in any process, through what each shows to every operator and what the database holds:
 * frames stored and queued from each one's /metrics (`ess_ingest_frames_total{outcome="stored"}`,
 * `ess_ingest_queue_frames`), latencies from the devices' latest-state pointers, which a batch
 * moves forward in the transaction that stores its history rows. A poller reads all pointers every
 * `pollMs` from a connection of its own; a pointer that moved since the last poll gives the newest
 * frame of that device a latency of (poll time − frame time). So the figure is late by up to one
 * poll interval plus the poll's own query, and it samples only the newest frame of each device per
 * poll (older ones of the same poll waited longer). Where `own` is the bench's own console, its
 * frames' exact latencies are collected beside it, to show how far the poll is off.
 */
export async function crossProcessProbe(options: {
  urls: () => string[];
  databaseUrl: string;
  pollMs: number;
  own?: Runtime;
}): Promise<StoreProbe> {
  const db: Db = await openPostgres({ url: options.databaseUrl, poolSize: 1, connectTimeoutMs: 5000 });
  const { rows } = await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const metrics = () => Promise.all(options.urls().map((url) => fetch(new URL("metrics", url)).then((r) => r.text())));
  let own: number[] = [];
  const newest = new Map<string, number>();
  const poll = async (collect: number[] | null) => {
    const at = Date.now();
    const { rows: pointers } = await db.query<{ d: string; t: number }>(
      "SELECT device_id::text AS d, (extract(epoch FROM ts) * 1000)::float8 AS t FROM device_latest",
    );
    for (const { d, t } of pointers) {
      const before = newest.get(d);
      if (collect && before !== undefined && t > before) collect.push(at - t);
      newest.set(d, t);
    }
  };
  return {
    stored: async () =>
      (await metrics()).reduce((sum, text) => sum + metricSum(text, "ess_ingest_frames_total", 'outcome="stored"'), 0),
    queued: async () => (await metrics()).reduce((sum, text) => sum + metricSum(text, "ess_ingest_queue_frames"), 0),
    latencies: async () => {
      const collected: number[] = [];
      const stopOwn = options.own ? committedLatencies(options.own) : () => [];
      await poll(null);
      let polling = true;
      const loop = (async () => {
        while (polling) {
          await new Promise((resolve) => setTimeout(resolve, options.pollMs));
          await poll(collected);
        }
      })();
      return async () => {
        polling = false;
        await loop;
        own = stopOwn();
        return collected;
      };
    },
    ...(options.own ? { ownLatencies: () => own } : {}),
    backends: rows.map((r) => r.pid),
    close: () => db.close(),
  };
}
