import type { IeeeActiveControl, IeeeCommandRecord, IeeeDeviceRecord, IeeeExchangeRecord } from "@ess/contracts";
import { type ActiveControl, GRID_COMMAND_MODES } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { containsPattern, first, type Sql, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";

/**
 * Reads of the IEEE device centre over the aggregator client's tables (migration 0240): grid
 * sites joined with their device, the documents exchanged per site and the controls received.
 * Every read passes the devices' data scope on the site's device.
 */

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export interface SiteRow {
  device_id: number;
  site_id: number;
  sn: string;
  nmi: string;
  lfdi: string;
  sfdi: string;
  grid_company: string;
  registered_state: number;
  failure: string | null;
  online_status: number;
  country_code: number | null;
  last_command_at: Date | null;
  last_poll_at: Date | null;
  created_at: Date;
  updated_at: Date;
  regular: number;
  sell: number;
  emergency: number;
  pure_pv: number;
  active_control: ActiveControl["control"] | null;
  active_source: ActiveControl["source"] | null;
  active_since: Date | null;
  active_until: Date | null;
}

const M = GRID_COMMAND_MODES;
export const SITE_SELECT = sql.raw(`d.id AS device_id, s.id AS site_id, d.sn, d.nmi, s.lfdi, s.sfdi, d.grid_company,
  s.registered_state, s.failure, d.online_status, d.country_code, s.last_command_at, s.last_poll_at, s.created_at, s.updated_at,
  coalesce(mc.regular, 0) AS regular, coalesce(mc.sell, 0) AS sell, coalesce(mc.emergency, 0) AS emergency,
  coalesce(mc.pure_pv, 0) AS pure_pv, s.active_control, s.active_source, s.active_since, s.active_until`);
// The mode counts of one page's sites only: a lateral count per site, over grid_command_site_idx,
// of the controls applied at the site (migration 0320), not every one received.
export const SITE_FROM = sql.raw(`grid_site s JOIN device d ON d.id = s.device_id AND d.deleted_at IS NULL
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE c.mode = ${M.regular})::int AS regular, count(*) FILTER (WHERE c.mode = ${M.sell})::int AS sell,
           count(*) FILTER (WHERE c.mode = ${M.emergency})::int AS emergency, count(*) FILTER (WHERE c.mode = ${M.purePv})::int AS pure_pv
      FROM grid_command c WHERE c.site_id = s.id AND c.applied_at IS NOT NULL) mc ON TRUE`);
/** The count needs neither the mode counts nor more than the scope's join. */
export const SITE_COUNT_FROM = sql.raw("grid_site s JOIN device d ON d.id = s.device_id AND d.deleted_at IS NULL");
export const SITE_SORT = {
  id: "s.id",
  createTime: "s.created_at",
  updateTime: "s.updated_at",
  lastCommandTime: "s.last_command_at",
} as const;

export interface SiteFilters {
  sn?: string | undefined;
  nmi?: string | undefined;
  gridCompany?: string | undefined;
  registeredState?: number | undefined;
}

/** `tenantId` repeats the scope's tenant on the site itself, so the list walks grid_site_list_idx. */
export function siteWhere(tenantId: number, scope: Sql, q: SiteFilters): Sql {
  return sql.and([
    sql`s.tenant_id = ${tenantId}`,
    scope,
    q.sn !== undefined && sql`d.sn ILIKE ${containsPattern(q.sn)}`,
    q.nmi !== undefined && sql`d.nmi ILIKE ${containsPattern(q.nmi)}`,
    q.gridCompany !== undefined && sql`d.grid_company ILIKE ${containsPattern(q.gridCompany)}`,
    q.registeredState !== undefined && sql`s.registered_state = ${q.registeredState}`,
  ]);
}

export const toSiteRecord = (r: SiteRow): IeeeDeviceRecord => ({
  id: r.device_id,
  siteId: r.site_id,
  sn: r.sn,
  nmi: r.nmi,
  lfdi: r.lfdi,
  sfdi: r.sfdi,
  gridCompany: r.grid_company,
  registeredState: r.registered_state,
  failure: r.failure,
  onlineStatus: r.online_status,
  countryCode: r.country_code,
  lastCommandTime: iso(r.last_command_at),
  lastPollTime: iso(r.last_poll_at),
  createTime: iso(r.created_at) as string,
  updateTime: iso(r.updated_at) as string,
  regularCount: r.regular,
  sellCount: r.sell,
  emergencyCount: r.emergency,
  purePvCount: r.pure_pv,
  activeControl: activeOf(r),
});

/** The control the grid client last found in force at the site (grid_site.active_*, migration 0265). */
export function activeOf(
  r: Pick<SiteRow, "active_control" | "active_source" | "active_since" | "active_until">,
): IeeeActiveControl | null {
  if (!r.active_control || !r.active_source) return null;
  return { control: r.active_control, ...r.active_source, since: iso(r.active_since), until: iso(r.active_until) };
}

/** The device a per-device read names (by SN or id), in the caller's scope, and its site if it has one. */
export async function deviceInScope(
  db: Queryable,
  scope: Sql,
  named: { sn?: string | undefined; deviceId?: number | undefined },
): Promise<{ id: number; sn: string; site_id: number | null }> {
  const row = await first<{ id: number; sn: string; site_id: number | null }>(
    db,
    sql`SELECT d.id, d.sn, s.id AS site_id FROM device d LEFT JOIN grid_site s ON s.device_id = d.id
         WHERE ${sql.and([
           sql`d.deleted_at IS NULL`,
           scope,
           named.sn !== undefined && sql`d.sn = ${named.sn}`,
           named.deviceId !== undefined && sql`d.id = ${named.deviceId}`,
         ])}`,
  );
  if (!row) throw notFound();
  return row;
}

export interface ExchangeRow {
  id: number;
  at: Date;
  method: string;
  path: string;
  status: number | null;
  resource: string | null;
  body: string;
  reads: number;
  /** The last read the row stands for (its own time when it stands for one). */
  last_at: Date;
}
export const EXCHANGE_SELECT = sql.raw(
  "x.id, x.at, x.method, x.path, x.status, x.resource, x.body, x.reads, coalesce(x.last_at, x.at) AS last_at",
);
export const EXCHANGE_SORT = { id: "x.id", time: "x.at" } as const;

export interface ExchangeFilters {
  resource?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}
/** One site's documents of one direction; a device without a site has none. */
export function exchangeWhere(siteId: number | null, direction: number, q: ExchangeFilters): Sql {
  return sql.and([
    sql`x.site_id = ${siteId ?? 0}`,
    sql`x.direction = ${direction}`,
    q.resource !== undefined && sql`x.resource ILIKE ${containsPattern(q.resource)}`,
    // A document read again and again is found by any time it was read.
    q.from !== undefined && sql`coalesce(x.last_at, x.at) >= ${q.from}`,
    q.to !== undefined && sql`x.at <= ${q.to}`,
  ]);
}
export const toExchangeRecord = (r: ExchangeRow): IeeeExchangeRecord => ({
  id: r.id,
  time: iso(r.at) as string,
  method: r.method,
  path: r.path,
  status: r.status,
  resource: r.resource,
  xml: r.body,
  reads: r.reads,
  lastTime: iso(r.last_at) as string,
});

export interface CommandRow {
  id: number;
  sn: string;
  mrid: string;
  program_mrid: string | null;
  primacy: number | null;
  kind: number;
  mode: number;
  start_at: Date | null;
  duration_s: number | null;
  event_status: number | null;
  response_status: number | null;
  received_at: Date;
}
export const COMMAND_SELECT = sql.raw(`c.id, d.sn, c.mrid, c.program_mrid, c.primacy, c.kind, c.mode, c.start_at, c.duration_s,
  c.event_status, c.response_status, c.received_at`);
export const COMMAND_FROM = sql.raw(
  "grid_command c JOIN grid_site s ON s.id = c.site_id JOIN device d ON d.id = s.device_id AND d.deleted_at IS NULL",
);
export const COMMAND_SORT = { id: "c.id", receivedTime: "c.received_at", startTime: "c.start_at" } as const;

/** `tenantId` repeats the scope's tenant on the command, so a list of all walks grid_command_tenant_idx. */
export function commandWhere(
  tenantId: number,
  scope: Sql,
  deviceId: number | null,
  q: { from?: Date | undefined; to?: Date | undefined },
): Sql {
  return sql.and([
    sql`c.tenant_id = ${tenantId}`,
    scope,
    deviceId !== null && sql`d.id = ${deviceId}`,
    q.from !== undefined && sql`c.received_at >= ${q.from}`,
    q.to !== undefined && sql`c.received_at <= ${q.to}`,
  ]);
}
export const toCommandRecord = (r: CommandRow): IeeeCommandRecord => ({
  id: r.id,
  sn: r.sn,
  mrid: r.mrid,
  programMrid: r.program_mrid,
  primacy: r.primacy,
  kind: r.kind,
  mode: r.mode,
  startTime: iso(r.start_at),
  durationS: r.duration_s,
  eventStatus: r.event_status,
  responseStatus: r.response_status,
  receivedTime: iso(r.received_at) as string,
});

export const EXCHANGE_FROM = sql.raw("grid_exchange x");

/** An export's rows: newest first (the id breaks ties), at most `limit`. */
export function newestFirst(select: Sql, from: Sql, where: Sql, column: string, limit: number): Sql {
  const idColumn = `${column.split(".")[0]}.id`;
  return sql`SELECT ${select} FROM ${from} WHERE ${where} ${sql.raw(`ORDER BY ${column} DESC, ${idColumn} DESC`)} LIMIT ${limit}`;
}
