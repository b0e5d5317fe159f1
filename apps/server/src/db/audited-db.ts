import { type AuditScope, pendingAuditScope } from "./audit-scope.ts";
import type { CopyRows, Db, Queryable, QueryResult, Row, Tx } from "./db.ts";
import { AuditLineError } from "./errors.ts";

const AUDITED = Symbol("audited");

/**
 * Statements that start with SELECT only read: they run as they are. (The schema has no function
 * that writes, so a SELECT cannot change data; nextval() is outside transactions anyway.)
 */
const READS = /^\s*select\b/i;

/** Whether the transaction has changed anything: PostgreSQL assigns an id only to one that writes. */
async function changed(tx: Queryable): Promise<boolean> {
  const { rows } = await tx.query<{ changed: boolean }>("SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS changed");
  return rows[0]?.changed === true;
}

/**
 * The database as change requests use it: inside a request's audit scope (`audit-scope.ts`) the
 * first transaction that changes something also inserts the request's operation-log line, just
 * before its COMMIT, so that the change and the line are committed together or not at all.
 * Statements sent outside a transaction (`db.query`, `db.copyRows`) run in a transaction of their
 * own for that, until the line is written; afterwards, and outside a scope, everything passes
 * through unchanged. Nothing here waits on another context inside a transaction, so PGlite's one
 * connection cannot deadlock on it.
 */
export function auditedDb(inner: Db): Db {
  if (AUDITED in inner) return inner;

  async function withLine<T>(scope: AuditScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
    let lineId: number | null = null;
    const result = await inner.transaction(async (tx) => {
      const value = await fn(tx);
      if (scope.lineIds.length === 0 && !scope.closed && (await changed(tx))) {
        lineId = await scope.insertLine(tx).catch((error) => Promise.reject(new AuditLineError(error)));
      }
      return value;
    });
    if (lineId !== null) scope.lineIds.push(lineId);
    return result;
  }

  const copyRows: CopyRows = (table, columns, rows, types) => {
    const scope = pendingAuditScope();
    if (!scope || rows.length === 0) return inner.copyRows(table, columns, rows, types);
    return withLine(scope, (tx) => tx.copyRows(table, columns, rows, types));
  };

  return {
    ...inner,
    [AUDITED]: true,
    query<T = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      const scope = pendingAuditScope();
      if (!scope || READS.test(text)) return inner.query<T>(text, params);
      return withLine(scope, (tx) => tx.query<T>(text, params));
    },
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const scope = pendingAuditScope();
      return scope ? withLine(scope, fn) : inner.transaction(fn);
    },
    copyRows,
  } as Db;
}
