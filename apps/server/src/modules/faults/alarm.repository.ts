import type { AlarmRecord, alarmListQuery } from "@ess/contracts";
import type { Locale } from "@ess/domain";
import type { z } from "zod";
import { containsPattern, type Sql, sql } from "../../db/sql.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { DataScope } from "../scope/data-scope.ts";
import { unknownFaultText } from "./fault-cache.ts";

export interface AlarmRow {
  id: number;
  device_id: number;
  sn: string;
  device_name: string;
  code: number;
  level: number;
  system_type: number;
  occurred_at: Date;
  cleared_at: Date | null;
  flap_count: number;
  /** Whether the tenant's fault catalogue holds the code (for its system type). */
  catalogued: boolean;
  info: string | null;
  causes: string | null;
  remedy: string | null;
}

/** Alarms with their device and their code's catalogue entry and alarm control (for the texts and the display rule). */
export const alarmFrom = sql.raw(`device_alarm a
  JOIN device d ON d.id = a.device_id AND d.deleted_at IS NULL
  LEFT JOIN fault_code f ON f.tenant_id = d.tenant_id AND f.code = a.code AND f.system_type = a.system_type
  LEFT JOIN alarm_control c ON c.tenant_id = d.tenant_id AND c.code = a.code`);

/** The columns, with the code's texts in the caller's language. */
export function alarmSelect(locale: Locale): Sql {
  return sql`a.id, a.device_id, d.sn, d.name AS device_name, a.code, a.level, a.system_type, a.occurred_at, a.cleared_at,
             a.flap_count, f.id IS NOT NULL AS catalogued, f.texts -> ${locale}::text ->> 'info' AS info, f.texts -> ${locale}::text ->> 'causes' AS causes,
             f.texts -> ${locale}::text ->> 'remedy' AS remedy`;
}

export const alarmSort = { id: "a.id", occurredAt: "a.occurred_at", clearedAt: "a.cleared_at", code: "a.code", level: "a.level" };

type AlarmQuery = Omit<z.output<typeof alarmListQuery>, "current" | "size" | "sort" | "order">;

/**
 * The alarms a caller may see (their devices, through the data scope), not hidden, of codes the
 * alarm control (else the catalogue) shows, narrowed by the list's filters.
 */
export function alarmFilters(scope: DataScope, q: AlarmQuery): Sql {
  return sql.and([
    scope.devices("d"),
    sql`NOT a.hidden`,
    sql`COALESCE(c.display, f.display, true)`,
    q.deviceId !== undefined && sql`a.device_id = ${q.deviceId}`,
    q.sn !== undefined && sql`d.sn ILIKE ${containsPattern(q.sn)}`,
    q.faultCode !== undefined && sql`a.code = ${q.faultCode}`,
    q.level !== undefined && sql`a.level = ${q.level}`,
    q.systemType !== undefined && sql`a.system_type = ${q.systemType}`,
    q.status === "occur" && sql`a.cleared_at IS NULL`,
    q.status === "disappear" && sql`a.cleared_at IS NOT NULL`,
    q.open === true && sql`a.cleared_at IS NULL`,
    q.from !== undefined && sql`a.occurred_at >= ${q.from}`,
    q.to !== undefined && sql`a.occurred_at <= ${q.to}`,
  ]);
}

/** An alarm as lists and exports show it; a code the catalogue lacks shows as an unknown fault with its code, in the caller's language. */
export const toAlarm =
  (t: Translate) =>
  (r: AlarmRow): AlarmRecord => ({
    ...alarmFields(r),
    ...(r.catalogued ? { info: r.info, causes: r.causes, remedy: r.remedy } : unknownFaultText(t, r.code)),
  });

const alarmFields = (r: AlarmRow): Omit<AlarmRecord, "info" | "causes" | "remedy"> => ({
  id: r.id,
  deviceId: r.device_id,
  sn: r.sn,
  deviceName: r.device_name,
  code: r.code,
  level: r.level,
  systemType: r.system_type,
  status: r.cleared_at === null ? "occur" : "disappear",
  occurredAt: r.occurred_at.toISOString(),
  clearedAt: r.cleared_at?.toISOString() ?? null,
  flapCount: r.flap_count,
});
