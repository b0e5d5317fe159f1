import { type AlarmControlRecord, type AlarmRecord, API, type FaultInput, type FaultRecord } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";
import { toCsv } from "../users/csv.ts";
import { type AlarmRow, alarmFilters, alarmFrom, alarmSelect, alarmSort, toAlarm } from "./alarm.repository.ts";
import type { FaultServices } from "./faults.runtime.ts";

const EXPORT_LIMIT = 10_000;

interface FaultRow {
  id: number;
  code: number;
  level: number;
  system_type: number;
  category: string | null;
  texts: FaultRecord["texts"];
  display: boolean;
  created_at: Date;
  updated_at: Date;
}
const toFault = (r: FaultRow): FaultRecord => ({
  id: r.id,
  code: r.code,
  level: r.level,
  systemType: r.system_type,
  category: r.category,
  texts: r.texts,
  display: r.display,
  createTime: r.created_at.toISOString(),
  updateTime: r.updated_at.toISOString(),
});
const FAULT_SELECT = sql.raw("f.id, f.code, f.level, f.system_type, f.category, f.texts, f.display, f.created_at, f.updated_at");

interface ControlRow {
  id: number;
  code: number;
  name: string;
  description: string;
  display: boolean;
  sort: number;
  created_at: Date;
}
const toControl = (r: ControlRow): AlarmControlRecord => ({
  id: r.id,
  code: r.code,
  name: r.name,
  description: r.description,
  display: r.display,
  sort: r.sort,
  createTime: r.created_at.toISOString(),
});

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";
/** The code is taken: of a fault code, or of an alarm-control entry (each field named as its form names it). */
const codeTaken = (label: "fields:faultCode" | "fields:alarmCode") =>
  new ValidationError([{ field: "code", key: "faults:codeTaken", values: { field: "code" }, label }]);

async function upsertFault(tx: Queryable, tenantId: number, f: FaultInput): Promise<"created" | "updated"> {
  const { rows } = await tx.query<{ created: boolean }>(
    `INSERT INTO fault_code (tenant_id, code, level, system_type, category, texts, display)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (tenant_id, code, system_type) DO UPDATE
       SET level = EXCLUDED.level, category = EXCLUDED.category, texts = EXCLUDED.texts, display = EXCLUDED.display, updated_at = now()
     RETURNING (xmax = 0) AS created`,
    [tenantId, f.code, f.level, f.systemType, f.category, JSON.stringify(f.texts), f.display],
  );
  return rows[0]?.created ? "created" : "updated";
}

/**
 * Faults and alarms over HTTP: the fault catalogue and alarm control (tenant configuration, for
 * administrators), device alarms (current and history, export, hide/delete) through the data
 * scope, device status labels, and each user's reminder preferences.
 */
export function registerFaultRoutes(app: FastifyInstance, deps: { db: Db; faults: FaultServices | null }) {
  const { db } = deps;
  const changed = (tenantId: number) => deps.faults?.catalogue.invalidate(tenantId);

  // ---- Fault catalogue ----
  bindRoute(app, API.fault.page, async ({ auth, input }) => {
    const q = input.query;
    const where = sql.and([
      sql`f.tenant_id = ${auth.tenantId}`,
      q.code !== undefined && sql`f.code = ${q.code}`,
      q.level !== undefined && sql`f.level = ${q.level}`,
      q.systemType !== undefined && sql`f.system_type = ${q.systemType}`,
      q.category !== undefined && sql`f.category = ${q.category}`,
      q.display !== undefined && sql`f.display = ${q.display}`,
      q.info !== undefined &&
        sql`EXISTS (SELECT 1 FROM jsonb_each(f.texts) e WHERE e.value->>'info' ILIKE ${containsPattern(q.info)})`,
    ]);
    return fetchPage<FaultRow, FaultRecord>(
      db,
      {
        select: FAULT_SELECT,
        from: sql.raw("fault_code f"),
        where,
        order: orderBy(q, { id: "f.id", code: "f.code", level: "f.level", createTime: "f.created_at" }, "f.code"),
      },
      q,
      toFault,
    );
  });

  bindRoute(app, API.fault.save, async ({ auth, input }) => {
    const f = input.body;
    try {
      const row = await first<FaultRow>(
        db,
        sql`INSERT INTO fault_code AS f (tenant_id, code, level, system_type, category, texts, display)
            VALUES (${auth.tenantId}, ${f.code}, ${f.level}, ${f.systemType}, ${f.category}, ${JSON.stringify(f.texts)}::jsonb, ${f.display})
            RETURNING ${FAULT_SELECT}`,
      );
      changed(auth.tenantId);
      return toFault(row as FaultRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken("fields:faultCode");
      throw error;
    }
  });

  bindRoute(app, API.fault.edit, async ({ auth, input }) => {
    const f = input.body;
    try {
      const row = await first<FaultRow>(
        db,
        sql`UPDATE fault_code f SET code = ${f.code}, level = ${f.level}, system_type = ${f.systemType}, category = ${f.category},
                   texts = ${JSON.stringify(f.texts)}::jsonb, display = ${f.display}, updated_at = now()
             WHERE f.id = ${f.id} AND f.tenant_id = ${auth.tenantId} RETURNING ${FAULT_SELECT}`,
      );
      if (!row) throw notFound();
      changed(auth.tenantId);
      return toFault(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken("fields:faultCode");
      throw error;
    }
  });

  bindRoute(app, API.fault.del, async ({ auth, input }) => {
    const { rowCount } = await run(db, sql`DELETE FROM fault_code WHERE id = ${input.body.id} AND tenant_id = ${auth.tenantId}`);
    if (rowCount === 0) throw notFound();
    changed(auth.tenantId);
    return null;
  });

  bindRoute(app, API.fault.export, async ({ auth, reply }) => {
    const { rows } = await run<FaultRow>(
      db,
      sql`SELECT ${FAULT_SELECT} FROM fault_code f WHERE f.tenant_id = ${auth.tenantId} ORDER BY f.code, f.system_type`,
    );
    const faults: FaultInput[] = rows.map((r) => ({
      code: r.code,
      level: r.level as FaultInput["level"],
      systemType: r.system_type as FaultInput["systemType"],
      category: r.category as FaultInput["category"],
      texts: r.texts as FaultInput["texts"],
      display: r.display,
    }));
    reply
      .type("application/json; charset=utf-8")
      .header("content-disposition", 'attachment; filename="fault-catalogue.json"')
      .send(JSON.stringify({ faults }, null, 2));
    return "";
  });

  bindRoute(app, API.fault.import, async ({ auth, input }) => {
    const seen = new Set<string>();
    input.body.faults.forEach((f, i) => {
      const key = `${f.code}:${f.systemType}`;
      if (seen.has(key)) {
        throw new ValidationError([
          {
            field: `faults.${i}.code`,
            key: "faults:duplicateInFile",
            values: { field: "code", code: f.code },
            label: "fields:faultCode",
          },
        ]);
      }
      seen.add(key);
    });
    const counts = { created: 0, updated: 0 };
    await db.transaction(async (tx) => {
      for (const f of input.body.faults) counts[await upsertFault(tx, auth.tenantId, f)]++;
    });
    changed(auth.tenantId);
    return counts;
  });

  // ---- Alarm control ----
  const CONTROL_SELECT = sql.raw("c.id, c.code, c.name, c.description, c.display, c.sort, c.created_at");
  bindRoute(app, API.alarmControl.page, async ({ auth, input }) => {
    const q = input.query;
    const where = sql.and([
      sql`c.tenant_id = ${auth.tenantId}`,
      q.code !== undefined && sql`c.code = ${q.code}`,
      q.name !== undefined && sql`c.name ILIKE ${containsPattern(q.name)}`,
      q.display !== undefined && sql`c.display = ${q.display}`,
    ]);
    const order =
      q.sort === undefined
        ? sql.raw("ORDER BY c.sort ASC, c.code ASC, c.id ASC")
        : orderBy(q, { id: "c.id", sort: "c.sort", code: "c.code", createTime: "c.created_at" }, "c.sort");
    return fetchPage<ControlRow, AlarmControlRecord>(
      db,
      { select: CONTROL_SELECT, from: sql.raw("alarm_control c"), where, order },
      q,
      toControl,
    );
  });

  bindRoute(app, API.alarmControl.save, async ({ auth, input }) => {
    const c = input.body;
    try {
      const row = await first<ControlRow>(
        db,
        sql`INSERT INTO alarm_control AS c (tenant_id, code, name, description, display, sort)
            VALUES (${auth.tenantId}, ${c.code}, ${c.name}, ${c.description}, ${c.display}, ${c.sort}) RETURNING ${CONTROL_SELECT}`,
      );
      changed(auth.tenantId);
      return toControl(row as ControlRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken("fields:alarmCode");
      throw error;
    }
  });

  bindRoute(app, API.alarmControl.edit, async ({ auth, input }) => {
    const c = input.body;
    try {
      const row = await first<ControlRow>(
        db,
        sql`UPDATE alarm_control c SET code = ${c.code}, name = ${c.name}, description = ${c.description}, display = ${c.display}, sort = ${c.sort}
             WHERE c.id = ${c.id} AND c.tenant_id = ${auth.tenantId} RETURNING ${CONTROL_SELECT}`,
      );
      if (!row) throw notFound();
      changed(auth.tenantId);
      return toControl(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken("fields:alarmCode");
      throw error;
    }
  });

  bindRoute(app, API.alarmControl.del, async ({ auth, input }) => {
    const { rowCount } = await run(
      db,
      sql`DELETE FROM alarm_control WHERE id = ${input.body.id} AND tenant_id = ${auth.tenantId}`,
    );
    if (rowCount === 0) throw notFound();
    changed(auth.tenantId);
    return null;
  });

  // ---- Device alarms ----
  bindRoute(app, API.alarm.page, async ({ auth, input, request }) => {
    const q = input.query;
    if (q.deviceId !== undefined) await findDeviceInScope(db, auth, q.deviceId);
    return fetchPage<AlarmRow, AlarmRecord>(
      db,
      {
        select: alarmSelect(request.locale),
        from: alarmFrom,
        where: alarmFilters(dataScope(auth), q),
        order: orderBy(q, alarmSort, "a.occurred_at"),
      },
      q,
      toAlarm(request.t),
    );
  });

  bindRoute(app, API.alarm.export, async ({ auth, input, request, reply }) => {
    const q = input.query;
    if (q.deviceId !== undefined) await findDeviceInScope(db, auth, q.deviceId);
    const { rows } = await run<AlarmRow>(
      db,
      sql`SELECT ${alarmSelect(request.locale)} FROM ${alarmFrom} WHERE ${alarmFilters(dataScope(auth), q)}
          ${orderBy(q, alarmSort, "a.occurred_at")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const columns = [
      "sn",
      "code",
      "level",
      "systemType",
      "status",
      "occurredAt",
      "clearedAt",
      "flapCount",
      "info",
      "causes",
      "remedy",
    ];
    const csv = toCsv(
      columns.map((c) => t(`alarms:columns.${c}`)),
      rows
        .map(toAlarm(t))
        .map((a) => [
          a.sn,
          a.code,
          a.level,
          t(`alarms:systemTypes.${a.systemType}`),
          t(`alarms:statuses.${a.status}`),
          a.occurredAt,
          a.clearedAt ?? "",
          a.flapCount,
          a.info ?? "",
          a.causes ?? "",
          a.remedy ?? "",
        ]),
    );
    reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="alarms.csv"').send(csv);
    return "";
  });

  bindRoute(app, API.alarm.remove, async ({ auth, input }) => {
    const b = input.body;
    const now = Date.now();
    const problems = [];
    if (b.beginTime.getTime() > now)
      problems.push({ field: "beginTime", key: "alarms:timeInFuture", values: { field: "beginTime" } });
    if (b.endTime.getTime() > now) problems.push({ field: "endTime", key: "alarms:timeInFuture", values: { field: "endTime" } });
    if (b.endTime.getTime() <= b.beginTime.getTime()) {
      problems.push({ field: "endTime", key: "alarms:endNotAfterStart", values: { field: "endTime" } });
    }
    if (problems.length > 0) throw new ValidationError(problems);
    const device = await findDeviceInScope(db, auth, b.deviceId);
    const affected = await db.transaction(async (tx) => {
      // An open alarm is only hidden, even when asked to delete: removing it would let the next
      // reading open it again as a new alarm.
      const hidden = await tx.query(
        `UPDATE device_alarm SET hidden = true
          WHERE device_id = $1 AND code = $2 AND occurred_at >= $3 AND occurred_at <= $4 AND NOT hidden
            AND ($5 = 'hide' OR cleared_at IS NULL)`,
        [device.id, b.faultCode, b.beginTime, b.endTime, b.action],
      );
      if (b.action === "hide") return hidden.rowCount;
      const deleted = await tx.query(
        `DELETE FROM device_alarm WHERE device_id = $1 AND code = $2 AND occurred_at >= $3 AND occurred_at <= $4 AND cleared_at IS NOT NULL`,
        [device.id, b.faultCode, b.beginTime, b.endTime],
      );
      return hidden.rowCount + deleted.rowCount;
    });
    return { affected };
  });

  bindRoute(app, API.alarm.statusLabels, async ({ auth, input }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const row = await first<{ status: number; open: number; codes: number[]; reported: boolean }>(
      db,
      sql`SELECT d.status,
                 (SELECT count(*)::int FROM device_alarm a WHERE a.device_id = d.id AND a.cleared_at IS NULL) AS open,
                 COALESCE((SELECT array_agg(a.code) FROM device_alarm a WHERE a.device_id = d.id AND a.cleared_at IS NULL), '{}') AS codes,
                 EXISTS (SELECT 1 FROM device_latest l WHERE l.device_id = d.id) AS reported
            FROM device d WHERE d.id = ${device.id}`,
    );
    const codes = new Set(row?.codes ?? []);
    const flag = (code: number) => (row?.reported ? (codes.has(code) ? 0 : 1) : null);
    return {
      deviceId: device.id,
      deviceStatus: row?.status ?? 0,
      openAlarms: row?.open ?? 0,
      dsp: flag(1601),
      bms: flag(1602),
      meter: flag(1502),
    };
  });

  // ---- Reminder preferences ----
  bindRoute(app, API.alarm.preference, async ({ auth }) => {
    const row = await first<{ levels: number[]; online_events: boolean }>(
      db,
      sql`SELECT levels, online_events FROM alarm_preference WHERE user_id = ${auth.userId}`,
    );
    return {
      levels: (row?.levels ?? [1, 2, 3]) as (1 | 2 | 3)[],
      onlineEvents: row?.online_events ?? true,
    };
  });

  bindRoute(app, API.alarm.savePreference, async ({ auth, input }) => {
    const levels = [...new Set(input.body.levels)].sort();
    await run(
      db,
      sql`INSERT INTO alarm_preference (user_id, levels, online_events) VALUES (${auth.userId}, ${levels}::smallint[], ${input.body.onlineEvents})
          ON CONFLICT (user_id) DO UPDATE SET levels = EXCLUDED.levels, online_events = EXCLUDED.online_events, updated_at = now()`,
    );
    return { levels, onlineEvents: input.body.onlineEvents };
  });
}
