import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { CopyType } from "./copy-binary.ts";
import { copyCommand, type Db, type Queryable, type QueryResult, type Tx, TYPE_PARSERS } from "./db.ts";

const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    return TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresOptions {
  url: string;
  poolSize: number;
  connectTimeoutMs: number;
}

export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    types,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const client = await pool.connect(); // fail fast when the server is unreachable
  client.release();

  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query(text, params as unknown[]);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
  });
  const copyOn = async (
    conn: pg.PoolClient,
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
    copyTypes?: readonly CopyType[],
  ) => {
    if (rows.length === 0) return 0;
    const { sql, payload } = copyCommand(table, columns, rows, "STDIN", copyTypes);
    const sink = conn.query(copyFrom(sql));
    await pipeline(Readable.from([payload]), sink);
    return rows.length;
  };
  const root = wrap(pool);
  return {
    driver: "postgres",
    query: root.query,
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query("BEGIN");
        const tx: Tx = {
          ...wrap(conn),
          copyRows: (table, columns, rows, copyTypes) => copyOn(conn, table, columns, rows, copyTypes),
        };
        const result = await fn(tx);
        await conn.query("COMMIT");
        return result;
      } catch (error) {
        await conn.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        conn.release();
      }
    },
    async copyRows(table, columns, rows, copyTypes) {
      if (rows.length === 0) return 0;
      const conn = await pool.connect();
      try {
        return await copyOn(conn, table, columns, rows, copyTypes);
      } finally {
        conn.release();
      }
    },
    async exec(script) {
      await pool.query(script);
    },
    async ping() {
      try {
        await pool.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}
