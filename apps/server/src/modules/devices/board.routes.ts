import { API, type BoardAnswer } from "@ess/contracts";
import { CO2_KG_PER_KWH, ratiosOf } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { first, run, type Sql, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { type DataScope, dataScope, devicesOfOrganisations } from "../scope/data-scope.ts";
import { deviceWhere } from "./device.repository.ts";

const kwh = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;

/** The data board over the devices a condition selects (already scoped). */
async function board(db: Db, where: Sql): Promise<BoardAnswer> {
  const [counts, today, total, byMonth, byCountry, realtime] = await Promise.all([
    first<{ all: number; normal: number; offline: number; error: number }>(
      db,
      sql`SELECT count(*)::int AS all,
                 count(*) FILTER (WHERE d.online_status <> 0 AND d.status = 0)::int AS normal,
                 count(*) FILTER (WHERE d.online_status = 0)::int AS offline,
                 count(*) FILTER (WHERE d.online_status <> 0 AND d.status = 3)::int AS error
            FROM device d WHERE ${where}`,
    ),
    // Today in each device's own time zone: its latest day's figures when that day is today.
    // Running totals per device (device_energy_total) spare reading every daily rollup.
    first<Record<string, number>>(
      db,
      sql`SELECT sum(t.last_pv) AS pv, sum(t.last_buy) AS buy, sum(t.last_sell) AS sell, sum(t.last_load) AS load
            FROM device d JOIN device_energy_total t ON t.device_id = d.id
           WHERE ${where} AND t.last_day = (now() AT TIME ZONE coalesce(d.time_zone, 'UTC'))::date`,
    ),
    // Lifetime figures: each device's lifetime counters at its newest reading (0131), or the sum
    // of its days here for a device that reports no such counter.
    first<Record<string, number>>(
      db,
      sql`SELECT sum(coalesce(t.pv_life, t.pv)) AS pv, sum(coalesce(t.buy_life, t.buy)) AS buy,
                 sum(coalesce(t.sell_life, t.sell)) AS sell, sum(coalesce(t.load_life, t.load)) AS load
            FROM device d JOIN device_energy_total t ON t.device_id = d.id WHERE ${where}`,
    ),
    // The last twelve months, each one present: a month without installations counts zero.
    run<{ month: string; count: number }>(
      db,
      sql`SELECT to_char(m.month, 'YYYY-MM') AS month, coalesce(i.count, 0)::int AS count
            FROM generate_series(date_trunc('month', now()) - interval '11 months', date_trunc('month', now()), interval '1 month')
                 AS m(month)
            LEFT JOIN (SELECT date_trunc('month', d.installed_at) AS month, count(*) AS count
                         FROM device d WHERE ${where} AND d.installed_at >= date_trunc('month', now()) - interval '11 months'
                        GROUP BY 1) i ON i.month = m.month
           ORDER BY 1`,
    ),
    run<{ country_code: number | null; count: number }>(
      db,
      sql`SELECT d.shown_country_code AS country_code, count(*)::int AS count FROM device d WHERE ${where}
           GROUP BY 1 ORDER BY 2 DESC, 1 NULLS LAST`,
    ),
    first<Record<string, number>>(
      db,
      sql`SELECT count(*)::int AS online, sum(h.pv_power) AS pv, sum(h.load_power) AS load,
                 sum(h.battery_power) AS battery, sum(h.grid_power) AS grid
            FROM device d JOIN device_latest l ON l.device_id = d.id
            JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
           WHERE ${where} AND d.online_status <> 0`,
    ),
  ]);
  const totals = { pv: kwh(total?.pv), buy: kwh(total?.buy), sell: kwh(total?.sell), load: kwh(total?.load) };
  const watts = (v: unknown) => Math.round(Number(v ?? 0));
  return {
    today: { pv: kwh(today?.pv), buy: kwh(today?.buy), sell: kwh(today?.sell), load: kwh(today?.load) },
    total: totals,
    devices: { all: counts?.all ?? 0, normal: counts?.normal ?? 0, offline: counts?.offline ?? 0, error: counts?.error ?? 0 },
    installations: {
      byMonth: byMonth.rows,
      byCountry: byCountry.rows.map((r) => ({ countryCode: r.country_code, count: r.count })),
    },
    co2Kg: kwh(totals.pv * CO2_KG_PER_KWH),
    ratios: ratiosOf(totals),
    realtime: {
      online: Number(realtime?.online ?? 0),
      pvPower: watts(realtime?.pv),
      loadPower: watts(realtime?.load),
      batteryPower: watts(realtime?.battery),
      gridPower: watts(realtime?.grid),
    },
  };
}

/** What decides the devices of a scope: the tenant, the organisation subtree, or the master user. */
function scopeKeyOf(auth: AuthContext, scope: DataScope): string {
  if (scope.kind === "org") return `${scope.tenantId}:org:${auth.org?.id}`;
  if (scope.kind === "own") return `${scope.tenantId}:own:${auth.parentUserId ?? auth.userId}`;
  return `${scope.tenantId}:${scope.kind}`;
}

/** Devices of one organisation (sold or installed by it or below it), which the caller must see. */
async function orgCondition(db: Db, scope: DataScope, orgId: number): Promise<Sql> {
  const org = await first<{ path: string }>(
    db,
    sql`SELECT o.path FROM organisation o WHERE o.id = ${orgId} AND o.deleted_at IS NULL AND ${scope.organisations("o")}`,
  );
  if (!org) throw notFound();
  return devicesOfOrganisations("d", sql`SELECT id FROM organisation WHERE path LIKE ${`${org.path}%`}`);
}

/**
 * Board answers are kept for a short while per scope: the board is a summary the console reloads
 * every minute, and the whole fleet's totals read every daily rollup (tens of millions of rows at
 * 100,000 devices), which no request should wait for again and again. Within `FRESH_MS` an answer
 * is served as it is; up to `STALE_MS` it is served while one refresh runs behind it; concurrent
 * requests for the same scope share one computation.
 */
const FRESH_MS = 15_000;
const STALE_MS = 120_000;
const MAX_ENTRIES = 10_000;

function boardCache() {
  const entries = new Map<string, { at: number; value?: BoardAnswer; pending?: Promise<BoardAnswer> }>();
  const refresh = (key: string, compute: () => Promise<BoardAnswer>) => {
    const entry = entries.get(key) ?? { at: 0 };
    const pending = compute().then(
      (value) => {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, { at: Date.now(), value });
        return value;
      },
      (error: unknown) => {
        if (entry.value) entries.set(key, { at: entry.at, value: entry.value });
        else entries.delete(key);
        throw error;
      },
    );
    entries.set(key, { ...entry, pending });
    return pending;
  };
  return (key: string, compute: () => Promise<BoardAnswer>): Promise<BoardAnswer> => {
    const entry = entries.get(key);
    const age = entry ? Date.now() - entry.at : Number.POSITIVE_INFINITY;
    if (entry?.value && age < FRESH_MS) return Promise.resolve(entry.value);
    if (entry?.value && age < STALE_MS) {
      if (!entry.pending) refresh(key, compute).catch(() => {});
      return Promise.resolve(entry.value);
    }
    return entry?.pending ?? refresh(key, compute);
  };
}

/**
 * The data board of every role (spec §2): one answer over the devices in the caller's scope, so
 * an administrator, distributor, dealer, installer and end user each see their own.
 */
export function registerBoardRoutes(app: FastifyInstance, db: Db) {
  const cached = boardCache();
  bindRoute(app, API.board.total, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const extra = input.query.orgId === undefined ? sql.raw("TRUE") : await orgCondition(db, scope, input.query.orgId);
    // Everyone whose scope reaches the same devices shares an answer (see scopeKeyOf).
    const key = `${scopeKeyOf(auth, scope)}|${input.query.orgId ?? ""}`;
    return cached(key, () => board(db, deviceWhere(scope, extra)));
  });
}
