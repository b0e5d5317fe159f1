import type { Db } from "../../db/db.ts";
import { createBatchQueue } from "./batch-queue.ts";
import type { SepExchange } from "./sep-client.ts";

/**
 * Stores exchanged documents as grid_exchange rows in batches: with a thousand sites the client
 * makes hundreds of exchanges a second, and one INSERT each was most of what a polling cycle cost
 * the console. Exchanges wait at most `delayMs` (or until `maxBatch` are waiting), then go in one
 * statement: a quarter of a second gathers some forty exchanges of a thousand sites, and the centre
 * shows them that much later. `flush` writes what waits (the client calls it when it stops).
 *
 * A read (GET) answered exactly as the last read of the same path for the same site is not stored
 * again: the row of that last read counts it (`reads`, `last_at`, migration 0325). Nearly every
 * poll reads an unchanged list, so this keeps the table to the documents that said something new.
 * Writes (PUT, POST) are each stored: every one of them changed something at the utility. The last
 * read per path is known only to this process (the grid client runs in one process at a time);
 * after a restart the first read of each path is stored anew.
 */

export interface ExchangeRecord {
  tenantId: number;
  exchange: SepExchange;
  at: Date;
}

export interface ExchangeWriter {
  add(record: ExchangeRecord): void;
  flush(): Promise<void>;
}

/** The last read of one path for one site: its answer, its row once stored, reads not yet counted there. */
interface LastRead {
  key: string;
  status: number | null;
  body: string;
  id?: number;
  uncounted: number;
  lastAt: Date;
}

/** A record to store, with its read when it is one. */
interface Pending extends ExchangeRecord {
  read?: LastRead;
}

interface Batch {
  rows: Pending[];
  /** Reads repeated since their row was stored or last counted. */
  repeated: Set<LastRead>;
}

/** At most this many paths' last reads are remembered (a thousand sites read about five each). */
const MAX_REMEMBERED = 20_000;

interface StoredRow {
  id: string;
  site_id: string | null;
  direction: number;
  path: string;
}

/** A read's path for a site (stored rows give the site as text). */
const readKey = (e: { siteId?: number | string | null; direction: number; path: string }) =>
  `${e.siteId ?? ""}\n${e.direction}\n${e.path}`;

export function createExchangeWriter(
  db: Db,
  options: { delayMs?: number; maxBatch?: number; onError: (error: unknown) => void },
): ExchangeWriter {
  const lastReads = new Map<string, LastRead>();
  const queue = createBatchQueue<Batch>({
    empty: () => ({ rows: [], repeated: new Set() }),
    size: (batch) => batch.rows.length + batch.repeated.size,
    write,
    delayMs: options.delayMs ?? 250,
    maxBatch: options.maxBatch ?? 500,
    onError: options.onError,
  });

  async function write(batch: Batch): Promise<void> {
    if (batch.rows.length > 0) await insert(batch.rows);
    await count(batch.repeated);
  }

  async function insert(rows: Pending[]) {
    const column = <T>(pick: (r: Pending) => T) => rows.map(pick);
    let stored: StoredRow[];
    try {
      ({ rows: stored } = await db.query<StoredRow>(
        `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, status, resource, body, at)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[])
         RETURNING id, site_id, direction, path`,
        [
          column((r) => r.tenantId),
          column((r) => r.exchange.siteId ?? null),
          column((r) => r.exchange.direction),
          column((r) => r.exchange.method),
          column((r) => r.exchange.path),
          column((r) => r.exchange.status),
          column((r) => r.exchange.resource),
          column((r) => r.exchange.body),
          column((r) => r.at),
        ],
      ));
    } catch (error) {
      // Not stored: the next read of each of these paths is stored anew rather than counted on nothing.
      for (const { read } of rows) if (read && lastReads.get(read.key) === read) lastReads.delete(read.key);
      throw error;
    }
    // Each read's row id, for the reads that repeat it. Rows come back in the order they were given
    // (as bulk inserts everywhere rely on); a row that does not match its record is not counted on.
    stored.forEach((row, i) => {
      const read = rows[i]?.read;
      if (read && readKey({ ...row, siteId: row.site_id }) === read.key) read.id = Number(row.id);
    });
  }

  async function count(repeated: Set<LastRead>) {
    const known = [...repeated].filter((r) => r.id !== undefined && r.uncounted > 0);
    if (known.length === 0) return;
    const counts = known.map((r) => r.uncounted);
    for (const r of known) r.uncounted = 0;
    await db.query(
      `UPDATE grid_exchange x SET reads = x.reads + u.n, last_at = greatest(coalesce(x.last_at, x.at), u.at)
         FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) AS u(id, n, at) WHERE x.id = u.id`,
      [known.map((r) => r.id), counts, known.map((r) => r.lastAt)],
    );
  }

  function remember(read: LastRead) {
    lastReads.delete(read.key);
    lastReads.set(read.key, read);
    if (lastReads.size > MAX_REMEMBERED) lastReads.delete(lastReads.keys().next().value as string);
    return read;
  }

  return {
    add(record) {
      const { exchange } = record;
      if (exchange.method !== "GET") {
        queue.waiting.rows.push(record);
        queue.added();
        return;
      }
      const key = readKey(exchange);
      const last = lastReads.get(key);
      // The same answer: the same status too, so an outage's refusals between two equal reads split them.
      if (last && last.status === exchange.status && last.body === exchange.body) {
        last.uncounted++;
        last.lastAt = record.at;
        queue.waiting.repeated.add(last);
      } else {
        queue.waiting.rows.push({
          ...record,
          read: remember({ key, status: exchange.status, body: exchange.body, uncounted: 0, lastAt: record.at }),
        });
      }
      queue.added();
    },
    flush: queue.flush,
  };
}
