import type { ClientErrorEntry } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";

export interface OperationEntry {
  tenantId: number;
  operatorId: number | null;
  operatorName: string;
  operation: string;
  method: string;
  requestUri: string;
  params: unknown;
  status: number;
  errorCode: string | null;
  durationMs: number;
  ip: string | null;
  userAgent: string | null;
}

export function writeOperation(db: Queryable, e: OperationEntry) {
  return db.query(
    `INSERT INTO sys_log (tenant_id, log_type, operator_id, operator_name, operation, method, request_uri, params,
                          status, error_code, duration_ms, ip, user_agent)
     VALUES ($1, 'operation', $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)`,
    [
      e.tenantId,
      e.operatorId,
      e.operatorName,
      e.operation,
      e.method,
      e.requestUri,
      e.params === undefined ? null : JSON.stringify(e.params),
      e.status,
      e.errorCode,
      e.durationMs,
      e.ip,
      e.userAgent,
    ],
  );
}

export interface Uploader {
  tenantId: number;
  userId: number;
  username: string;
  ip: string | null;
  userAgent: string | null;
}

/** Stores the console's local error log with the operation log, in one statement. */
export async function writeClientErrors(db: Queryable, who: Uploader, entries: readonly ClientErrorEntry[]): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO sys_log (tenant_id, log_type, operator_id, operator_name, operation, method, request_uri, params,
                          ip, user_agent, message, stack)
     SELECT $1, 'client-error', $2, $3, 'client.error', '', e.url,
            jsonb_build_object('type', e.type, 'info', e.info, 'time', e.time), $4, $5, e.message, e.stack
       FROM jsonb_to_recordset($6::jsonb) AS e(type text, url text, message text, stack text, info text, time text)`,
    [who.tenantId, who.userId, who.username, who.ip, who.userAgent, JSON.stringify(entries)],
  );
  return rowCount;
}
