import type { ClientErrorEntry } from "@ess/contracts";
import { type OperationId, PRODUCT } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { storableField, storableValue } from "./log-text.ts";

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

const TEXT_MAX = 2_000;

/**
 * Inserts one operation line (`db` may be the transaction of the change it records); answers its
 * id. Every text is made storable first (log-text.ts): a line is never lost to what it quotes.
 */
export async function writeOperation(db: Queryable, e: OperationEntry): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO sys_log (tenant_id, log_type, operator_id, operator_name, operation, method, request_uri, params,
                          status, error_code, duration_ms, ip, user_agent)
     -- A public call may name a tenant that does not exist (TENANT-ID header): its line goes to the default tenant.
     VALUES (coalesce((SELECT t.id FROM tenant t WHERE t.id = $1), $13), 'operation', $2, $3, $4, $5, $6, $7::jsonb, $8, $9,
             $10, $11, $12)
     RETURNING id`,
    [
      e.tenantId,
      e.operatorId,
      storableField(e.operatorName, 64),
      storableField(e.operation, TEXT_MAX),
      storableField(e.method, 16),
      storableField(e.requestUri, TEXT_MAX),
      e.params === undefined ? null : JSON.stringify(storableValue(e.params)),
      e.status,
      storableField(e.errorCode, 64),
      e.durationMs,
      storableField(e.ip, 64),
      storableField(e.userAgent, 255),
      PRODUCT.defaultTenantId,
    ],
  );
  return rows[0]?.id as number;
}

/** Completes a line written with its change (presumed successful then) with how the request ended. */
export async function completeOperation(
  db: Queryable,
  ids: readonly number[],
  end: Pick<OperationEntry, "status" | "errorCode" | "durationMs">,
): Promise<void> {
  await db.query("UPDATE sys_log SET status = $2, error_code = $3, duration_ms = $4 WHERE id = ANY($1::bigint[])", [
    ids,
    end.status,
    storableField(end.errorCode, 64),
    end.durationMs,
  ]);
}

export interface Uploader {
  tenantId: number;
  userId: number;
  username: string;
  ip: string | null;
  userAgent: string | null;
}

/** The operation an uploaded console error is logged as. */
export const CLIENT_ERROR_OPERATION = "client.error" satisfies OperationId;

/** Stores the console's local error log with the operation log, in one statement. */
export async function writeClientErrors(db: Queryable, who: Uploader, entries: readonly ClientErrorEntry[]): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO sys_log (tenant_id, log_type, operator_id, operator_name, operation, method, request_uri, params,
                          ip, user_agent, message, stack)
     SELECT $1, 'client-error', $2, $3, $7, '', e.url,
            jsonb_build_object('type', e.type, 'info', e.info, 'time', e.time), $4, $5, e.message, e.stack
       FROM jsonb_to_recordset($6::jsonb) AS e(type text, url text, message text, stack text, info text, time text)`,
    [
      who.tenantId,
      who.userId,
      storableField(who.username, 64),
      storableField(who.ip, 64),
      storableField(who.userAgent, 255),
      JSON.stringify(storableValue(entries)),
      CLIENT_ERROR_OPERATION,
    ],
  );
  return rowCount;
}
