/**
 * Published content's list routes with a large tenant: the staff lists (data center, banners) and
 * the app's reads, beside a bare Fastify route, each at a fixed rate from this process to the
 * console server in its own process (embedded PGlite, or PostgreSQL with BENCH_DATABASE_URL; loopback). Prints figures; it never passes
 * or fails on time.
 *
 *   npm run content -w @ess/bench -- [articles=100000] [banners=100000] [rate=200] [seconds=10]
 */
import { cpus, loadavg } from "node:os";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import { startBareFastify } from "./bare-fastify-process.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { measureTimerDelay, printTable, runLoad } from "./load.ts";

const articles = Number(process.argv[2] ?? 100_000);
const banners = Number(process.argv[3] ?? 100_000);
const rate = Number(process.argv[4] ?? 200);
const seconds = Number(process.argv[5] ?? 10);
const password = "Bench12345";
const say = (line: string) => process.stdout.write(`${line}\n`);

// Rows written straight into the database before the server opens it (no route makes 100,000 quickly).
const dataDir = tempDataDir("ess-bench-content-");
const seeding = performance.now();
const database = await openBenchDatabase(dataDir, "ess_bench_content");
const { db } = database;
await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
await db.query(
  `INSERT INTO media (tenant_id, key, kind, sha256, content_type, name, size, width, height)
   VALUES (1, '00000000000000000000000000000001', 'image', repeat('0', 64), 'image/png', 'bench.png', 1, 1, 1)`,
);
const languages = "ARRAY['zh-CN','en-US','it','es','ja']";
await db.query(
  `INSERT INTO content_article (tenant_id, title, type, language, terminal, sketch, cover_id, content, sort, state, publish_time)
   SELECT 1, 'Article ' || g, 1 + g % 6, (${languages})[1 + g % 5], g % 3, 'Summary ' || g, CASE WHEN g % 2 = 0 THEN 1 END,
          '<p>' || repeat('Text of article ' || g || '. ', 10) || '</p>', g % 100, CASE WHEN g % 10 = 0 THEN 0 ELSE 1 END,
          now() - make_interval(mins => g)
     FROM generate_series(1, $1) g`,
  [articles],
);
await db.query(
  `INSERT INTO content_banner (tenant_id, kind, title, language, terminal, image_id, sort, state)
   SELECT 1, 1 + g % 2, 'Banner ' || g, (${languages})[1 + g % 5], g % 3, 1, g % 1000, CASE WHEN g % 10 = 0 THEN 0 ELSE 1 END
     FROM generate_series(1, $1) g`,
  [banners],
);
await db.query("ANALYZE");
await db.close();
say(
  `seeded ${articles} articles and ${banners} banners into ${database.engine} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
);

const bare = startBareFastify();
const barePort = await bare.port;
const server = startServerProcess({
  ...database.serverEnv,
  DATA_DIR: dataDir,
  ESS_ADMIN_PASSWORD: password,
  ESS_SESSION_CACHE_S: "10",
});
const url = await server.ready();
const post = async (path: string, body: unknown, token?: string) =>
  (await (
    await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
  ).json()) as { code: number; data: { access_token: string } };
const admin = (await post("login?grant_type=admin", { username: "admin", password })).data.access_token;
// An end user for the app's routes (made by staff: it changes its password at its first sign-in).
await post("admin/lsyuser/save", { username: "bench-reader", password: "Reader2025x", name: "Reader" }, admin);
const first = (await post("login?grant_type=admin", { username: "bench-reader", password: "Reader2025x" })).data.access_token;
await post(
  "sys/user/password/edit",
  { oldPassword: "Reader2025x", newPassword: "Reader2026y", confirmPassword: "Reader2026y" },
  first,
);
const reader = (await post("login?grant_type=admin", { username: "bench-reader", password: "Reader2026y" })).data.access_token;
const staff = { authorization: `Bearer ${admin}` };
const app = { authorization: `Bearer ${reader}` };

say(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const floor = await measureTimerDelay();
say(
  `machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, max ${floor.max.toFixed(1)} ms`,
);
const rows = [];
for (const [name, target, headers] of [
  ["bare Fastify (ceiling)", `http://127.0.0.1:${barePort}/bare`, {}],
  ["data center, first page", `${url}admin/lsydatacenter/page`, staff],
  ["data center, type + state + language, page 3", `${url}admin/lsydatacenter/page?type=4&state=1&language=it&current=3`, staff],
  ["data center, title substring", `${url}admin/lsydatacenter/page?title=icle%204242`, staff],
  ["app: published news in Italian", `${url}app/content/article/page?language=it&type=1`, app],
  ["app: published, any type, page 5", `${url}app/content/article/page?language=ja&current=5`, app],
  ["app: one article", `${url}app/content/article/info?id=4201`, app],
  ["banners, first page", `${url}admin/banner/page`, staff],
  ["app: banners in Spanish", `${url}app/content/banner/list?kind=1&language=es`, app],
] as const) {
  await runLoad({ url: target, headers, ratePerSec: rate, durationS: 1 }); // warm-up
  rows.push({ name, result: await runLoad({ url: target, headers, ratePerSec: rate, durationS: seconds }) });
}
printTable(rows);
bare.stop();
await server.stop();
await database.drop();
