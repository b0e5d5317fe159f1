import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { copyPayload, type Db, type Queryable, type QueryResult, quoteIdent, type Tx, TYPE_PARSERS } from "./db.ts";

/**
 * PGlite takes one statement at a time; its own mutex queues concurrent callers. `snapshot`
 * starts from a dumped data folder instead of running initdb (tests use a migrated one).
 */
export interface PgliteDb extends Db {
  /** The whole data folder as a tar, loadable as a `snapshot`. */
  dump(): Promise<Blob>;
}

export async function openPglite(dataDir: string | undefined, snapshot?: Blob): Promise<PgliteDb> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the device list's substring filters use trigram indexes (migration 0080).
  const pg = new PGlite({
    dataDir,
    parsers: TYPE_PARSERS,
    extensions: { pg_trgm },
    ...(snapshot ? { loadDataDir: snapshot } : {}),
  });
  await pg.waitReady;
  const wrap = (target: Pick<PGlite, "query">): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(text, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
  });
  const copyOn = async (
    target: Pick<PGlite, "query">,
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
  ) => {
    if (rows.length === 0) return 0;
    const blob = new Blob([copyPayload(rows)]);
    await target.query(`COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) FROM '/dev/blob'`, [], { blob });
    return rows.length;
  };
  const root = wrap(pg);
  return {
    driver: "pglite",
    query: root.query,
    transaction: (fn) =>
      pg.transaction((tx) => {
        const handle: Tx = { ...wrap(tx), copyRows: (table, columns, rows) => copyOn(tx, table, columns, rows) };
        return fn(handle);
      }),
    copyRows: (table, columns, rows) => copyOn(pg, table, columns, rows),
    async exec(script) {
      await pg.exec(script);
    },
    async ping() {
      try {
        await pg.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => pg.close(),
    dump: () => pg.dumpDataDir("none"),
  };
}
