import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { CopyType } from "./copy-binary.ts";
import { copyCommand, type Db, type Queryable, type QueryResult, type Tx, TYPE_PARSERS } from "./db.ts";

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
    types?: readonly CopyType[],
  ) => {
    if (rows.length === 0) return 0;
    const { sql, payload } = copyCommand(table, columns, rows, "'/dev/blob'", types);
    await target.query(sql, [], { blob: new Blob([payload]) });
    return rows.length;
  };
  const root = wrap(pg);
  return {
    driver: "pglite",
    query: root.query,
    transaction: (fn) =>
      pg.transaction((tx) => {
        const handle: Tx = { ...wrap(tx), copyRows: (table, columns, rows, types) => copyOn(tx, table, columns, rows, types) };
        return fn(handle);
      }),
    copyRows: (table, columns, rows, types) => copyOn(pg, table, columns, rows, types),
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
    listen: (channel, handler) => pg.listen(channel, handler),
    dump: () => pg.dumpDataDir("none"),
  };
}
