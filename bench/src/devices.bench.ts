/**
 * Device management under load: a PostgreSQL database holding a fleet (default 100,000 devices
 * across 10 distributors, 50 dealers and 200 installer companies) with daily energy rollups
 * (default a year per device), and the console server in its own process on it. Each route is
 * driven at a fixed rate (open loop) beside a bare Fastify route as the ceiling; prints p50/p99.
 * Prints figures; it never passes or fails on time.
 *
 *   npm run devices -w @ess/bench -- [devices=100000] [days=365] [rate=200] [seconds=10]
 * Needs BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a fresh database
 * is made and dropped). BENCH_KEEP=1 keeps it; BENCH_REUSE=<its url> measures a kept database
 * again (seeding a year of rollups takes tens of minutes; the server migrates it on start).
 * Loopback only.
 */
import { cpus, loadavg } from "node:os";
import { createScratchDatabase } from "@ess/server/internal/db/scratch-database.ts";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import pg from "pg";
import { startBareFastify } from "./bare-fastify-process.ts";
import { measureTimerDelay, printTable, runLoad } from "./load.ts";

const deviceCount = Number(process.argv[2] ?? 100_000);
const days = Number(process.argv[3] ?? 365);
const rate = Number(process.argv[4] ?? 200);
const seconds = Number(process.argv[5] ?? 10);
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const password = "Bench12345";
const say = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

const reuse = process.env.BENCH_REUSE;
const scratch = reuse ? { url: reuse, drop: async () => {} } : await createScratchDatabase(serverUrl, "ess_bench_devices");
const server = startServerProcess({
  DATA_DIR: tempDataDir("ess-bench-dev-"),
  DATABASE_URL: scratch.url,
  ESS_ADMIN_PASSWORD: password,
});
const bare = startBareFastify();
// Listened for at once: the bare route is up long before a server that migrates a kept fleet.
const bareListening = bare.port;
try {
  // A kept fleet may first migrate tens of millions of rollups (running totals, 0081).
  const url = await server.ready(reuse ? 1_800_000 : undefined);
  const barePort = await bareListening;
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  // The scratch database is dropped with FORCE at the end, whatever happened.
  db.on("error", () => {});

  const seeded = Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM device")).rows[0]?.n) > 0;
  if (reuse && !seeded) throw new Error(`${reuse} holds no fleet; seed one with BENCH_KEEP=1 first`);
  if (!seeded) {
    // The channel: distributors under the manufacturer, dealers under them, installers under dealers.
    const t0 = performance.now();
    await db.query(`
      INSERT INTO organisation (tenant_id, parent_id, kind, path, name)
      SELECT 1, (SELECT id FROM organisation WHERE kind = 'manufacturer'), 'distributor', '', 'Distributor ' || g FROM generate_series(1, 10) g;
      UPDATE organisation o SET path = p.path || o.id || '/' FROM organisation p WHERE o.parent_id = p.id AND o.kind = 'distributor';
      INSERT INTO organisation (tenant_id, parent_id, kind, path, name)
      SELECT 1, d.id, 'dealer', '', 'Dealer ' || d.id || '-' || g FROM organisation d, generate_series(1, 5) g WHERE d.kind = 'distributor';
      UPDATE organisation o SET path = p.path || o.id || '/' FROM organisation p WHERE o.parent_id = p.id AND o.kind = 'dealer';
      INSERT INTO organisation (tenant_id, parent_id, kind, path, name)
      SELECT 1, d.id, 'installer', '', 'Installer ' || d.id || '-' || g FROM organisation d, generate_series(1, 4) g WHERE d.kind = 'dealer';
      UPDATE organisation o SET path = p.path || o.id || '/' FROM organisation p WHERE o.parent_id = p.id AND o.kind = 'installer';`);
    // Each device: sold by a dealer, installed by one of that dealer's installers.
    await db.query(
      `WITH installers AS (SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, parent_id FROM organisation WHERE kind = 'installer')
       INSERT INTO device (tenant_id, sn, name, org_id, installer_org_id, model, phase_type, time_zone, country_code,
                           online_status, rated_power, installed_at, created_at)
       SELECT 1, 'B' || lpad(g::text, 7, '0'), 'Site ' || g, i.parent_id, i.id,
              (ARRAY['H5K','H6K','H3-10K','H3-12K'])[1 + g % 4], CASE WHEN g % 4 < 2 THEN 1 ELSE 2 END,
              (ARRAY['Europe/Rome','Europe/Berlin','Australia/Sydney','Asia/Shanghai'])[1 + g % 4], g % 15,
              CASE WHEN g % 10 = 0 THEN 0 ELSE 1 END, 5 + g % 10,
              now() - (g % 700) * interval '1 day', now() - (g % 700) * interval '1 day'
         FROM generate_series(1, $1::int) g JOIN installers i ON i.n = g % 200`,
      [deviceCount],
    );
    say(`${fmt(deviceCount)} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    const chunk = 5_000;
    for (let from = 1; from <= deviceCount; from += chunk) {
      await db.query(
        `INSERT INTO device_energy_daily (device_id, day, first_ts, last_ts, pv_day_last, load_day_last, buy_day_last,
                                          sell_day_last, charge_day_last, discharge_day_last)
         SELECT d.id, day::date, day, day + interval '23 hours', 10 + d.id % 20, 12, 4, 3, 5, 4
           FROM device d, generate_series(current_date - $3::int, current_date - 1, interval '1 day') day
          WHERE d.id BETWEEN $1 AND $2`,
        [from, from + chunk - 1, days],
      );
    }
    await db.query("ANALYZE");
    say(`${fmt(deviceCount * days)} daily rollups in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  } else await db.query("ANALYZE"); // planner statistics for what the server's migrations just added

  // A dealer's account, to measure the scoped reads as channel staff see them.
  // (The plain pg client reads bigint ids as text.)
  const dealer = Number(
    (await db.query<{ id: string }>("SELECT id FROM organisation WHERE kind = 'dealer' ORDER BY id LIMIT 1")).rows[0]?.id,
  );
  const signIn = async (username: string) =>
    (
      (await (
        await fetch(`${url}login?grant_type=admin`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username, password }),
        })
      ).json()) as { data: { access_token: string } }
    ).data.access_token;
  const admin = await signIn("admin");
  const created = seeded
    ? undefined
    : await fetch(`${url}sys/user/save`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
        body: JSON.stringify({
          username: "benchdealer",
          password,
          name: "Bench dealer",
          userType: 1,
          orgId: dealer,
          roleIds: [Number((await db.query<{ id: string }>("SELECT id FROM sys_role WHERE code = 'DEALER'")).rows[0]?.id)],
        }),
      });
  if (created && !created.ok) throw new Error(await created.text());
  await db.query("UPDATE sys_user SET must_change_password = false WHERE username = 'benchdealer'");
  const asAdmin = { authorization: `Bearer ${admin}` };
  const asDealer = { authorization: `Bearer ${await signIn("benchdealer")}` };
  const someDevice = Number(
    (await db.query<{ id: string }>("SELECT id FROM device WHERE org_id = $1 LIMIT 1", [dealer])).rows[0]?.id,
  );
  await db.end();

  const today = new Date();
  const yearAgo = new Date(today.getTime() - 364 * 86_400_000);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const year = `deviceId=${someDevice}&type=1&startDate=${iso(yearAgo)}&endDate=${iso(today)}`;
  say(
    `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()[0]?.toFixed(1)}, ${rate} requests/s for ${seconds} s each`,
  );
  const floor = await measureTimerDelay();
  say(`machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms`);
  // The board's first computation per scope (later requests within its freshness are served from memory).
  for (const [name, headers] of [
    ["dealer", asDealer],
    ["admin, whole fleet", asAdmin],
  ] as const) {
    const started = performance.now();
    await fetch(`${url}admin/board/total`, { headers });
    say(
      `data board (${name}), first computation: ${(performance.now() - started).toFixed(0)} ms (load average ${loadavg()[0]?.toFixed(1)})`,
    );
  }
  const rows = [];
  for (const [name, target, headers] of [
    ["bare Fastify (ceiling)", `http://127.0.0.1:${barePort}/bare`, {}],
    [
      "list, filtered + paged (admin)",
      `${url}admin/lsydevice/page?onlineStatus=1&model=H3-10K&current=3&size=20&sort=createTime`,
      asAdmin,
    ],
    ["list, filtered + paged (dealer)", `${url}admin/lsydevice/page?onlineStatus=1&sn=B00&current=2&size=20`, asDealer],
    ["device details", `${url}admin/lsydevice/info?id=${someDevice}`, asDealer],
    ["a year of energy (months)", `${url}admin/lsydeviceelectricitydata/list?${year}`, asDealer],
    ["a year of revenue (months)", `${url}admin/lsydeviceincomedata/list?${year}`, asDealer],
    ["data board (dealer)", `${url}admin/board/total`, asDealer],
    ["data board (admin, whole fleet)", `${url}admin/board/total`, asAdmin],
  ] as const) {
    await runLoad({ url: target, headers, ratePerSec: Math.min(rate, 20), durationS: 1 }); // warm-up
    const result = await runLoad({ url: target, headers, ratePerSec: rate, durationS: seconds });
    rows.push({ name, result, load: loadavg()[0] ?? Number.NaN });
  }
  printTable(rows);
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  bare.stop();
  await server.stop();
  // BENCH_KEEP=1 keeps the database for a look at query plans.
  if (process.env.BENCH_KEEP === "1") say(`kept ${scratch.url}`);
  else await scratch.drop();
}
