/**
 * HTTP baseline: the console server's cheapest routes beside a bare Fastify route, each at a
 * fixed rate, from this process to servers in their own processes on loopback. Prints figures;
 * it never passes or fails on time.
 *
 *   npm run http -w @ess/bench -- [rate=200] [seconds=10]
 */
import { cpus } from "node:os";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import { startBareFastify } from "./bare-fastify-process.ts";
import { measureTimerDelay, printTable, runLoad } from "./load.ts";

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 10);
const password = "Bench12345";

const bare = startBareFastify();
const barePort = await bare.port;
const server = startServerProcess({ DATA_DIR: tempDataDir("ess-bench-"), ESS_ADMIN_PASSWORD: password });
const url = await server.ready();
const login = (await (
  await fetch(`${url}login?grant_type=admin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  })
).json()) as { data: { access_token: string } };
const auth = { authorization: `Bearer ${login.data.access_token}` };

process.stdout.write(`${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), ${rate} requests/s for ${seconds} s each\n`);
const floor = await measureTimerDelay();
process.stdout.write(
  `machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, max ${floor.max.toFixed(1)} ms\n`,
);
const rows = [];
for (const [name, target, headers] of [
  ["bare Fastify (ceiling)", `http://127.0.0.1:${barePort}/bare`, {}],
  ["GET /healthz", `${url}healthz`, {}],
  ["GET /sys/user/info (token + DB)", `${url}sys/user/info`, auth],
] as const) {
  await runLoad({ url: target, headers, ratePerSec: rate, durationS: 1 }); // warm-up
  rows.push({ name, result: await runLoad({ url: target, headers, ratePerSec: rate, durationS: seconds }) });
}
printTable(rows);
bare.stop();
await server.stop();
