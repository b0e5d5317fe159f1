import type { Db } from "../../db/db.ts";
import { createBatchQueue } from "./batch-queue.ts";
import type { SepExchange } from "./sep-client.ts";

/**
 * Stores exchanged documents as grid_exchange rows in batches: with a thousand sites the client
 * makes hundreds of exchanges a second, and one INSERT each was most of what a polling cycle cost
 * the console. Exchanges wait at most `delayMs` (or until `maxBatch` are waiting), then go in one
 * statement: a quarter of a second gathers some forty exchanges of a thousand sites, and the centre
 * shows them that much later. `flush` writes what waits (the client calls it when it stops).
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

export function createExchangeWriter(
  db: Db,
  options: { delayMs?: number; maxBatch?: number; onError: (error: unknown) => void },
): ExchangeWriter {
  const queue = createBatchQueue<ExchangeRecord[]>({
    empty: () => [],
    size: (batch) => batch.length,
    write,
    delayMs: options.delayMs ?? 250,
    maxBatch: options.maxBatch ?? 500,
    onError: options.onError,
  });

  function write(batch: ExchangeRecord[]): Promise<void> {
    const column = <T>(pick: (r: ExchangeRecord) => T) => batch.map(pick);
    return db
      .query(
        `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, status, resource, body, at)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[])`,
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
      )
      .then(() => undefined);
  }

  return {
    add(record) {
      queue.waiting.push(record);
      queue.added();
    },
    flush: queue.flush,
  };
}
