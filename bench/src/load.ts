import { Agent, request } from "node:http";

/**
 * An open-loop load generator: requests start on a fixed schedule whatever the answers' speed,
 * so a slow server shows as latency instead of quietly lowering the rate (coordinated omission).
 */
export interface LoadResult {
  sent: number;
  ok: number;
  failed: number;
  achievedRps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export async function runLoad(options: {
  url: string;
  headers?: Record<string, string>;
  ratePerSec: number;
  durationS: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const total = Math.round(options.ratePerSec * options.durationS);
  const interval = 1000 / options.ratePerSec;
  // A bounded keep-alive pool: connections are reused, so the figures measure the server, not
  // TCP set-up; requests beyond the pool queue client-side and that wait counts as latency.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  const started = performance.now();
  let sent = 0;
  let settled = 0;
  // One tick sends every request that is due by now; each request's latency counts from when it
  // was due, so a stalled generator or server shows up instead of being hidden.
  await new Promise<void>((done) => {
    const tick = () => {
      const dueCount = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
      for (; sent < dueCount; sent++) {
        const due = started + sent * interval;
        get(options.url)
          .then((status) => {
            latencies.push(performance.now() - due);
            if (status >= 200 && status < 300) ok++;
            else failed++;
          })
          .catch(() => {
            failed++;
          })
          .finally(() => {
            settled++;
            if (settled === total) done();
          });
      }
      if (sent < total) setTimeout(tick, 2);
    };
    tick();
  });
  agent.destroy();
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    sent: total,
    ok,
    failed,
    achievedRps: total / elapsed,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

export function printTable(rows: { name: string; result: LoadResult; load?: number }[]) {
  const f = (n: number) => n.toFixed(1).padStart(8);
  // The one-minute load average while a route ran, where the caller measured it (shared machines).
  const withLoad = rows.some((r) => r.load !== undefined);
  process.stdout.write(
    `${"route".padEnd(34)}${"rps".padStart(8)}${"p50 ms".padStart(8)}${"p90 ms".padStart(8)}${"p99 ms".padStart(8)}${"max ms".padStart(8)}${withLoad ? "    load" : ""}  ok/failed\n`,
  );
  for (const { name, result: r, load } of rows) {
    process.stdout.write(
      `${name.padEnd(34)}${f(r.achievedRps)}${f(r.p50)}${f(r.p90)}${f(r.p99)}${f(r.max)}${withLoad ? f(load ?? Number.NaN) : ""}  ${r.ok}/${r.failed}\n`,
    );
  }
}

/**
 * The machine's own floor: how late a 10 ms timer fires in an idle process. On a shared virtual
 * machine this alone can reach tens of milliseconds at p99, which no server can beat.
 */
export async function measureTimerDelay(durationMs = 3000): Promise<{ p50: number; p99: number; max: number }> {
  const delays: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const before = performance.now();
    await new Promise((r) => setTimeout(r, 10));
    delays.push(performance.now() - before - 10);
  }
  delays.sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: delays.at(-1) ?? Number.NaN };
}
