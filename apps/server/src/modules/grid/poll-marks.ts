import type { Db } from "../../db/db.ts";
import { createBatchQueue } from "./batch-queue.ts";

/**
 * Each site's last poll (and its failure, if it failed) written to grid_site in one statement per
 * second for every site that polled in it, not one UPDATE per site per round. Only a site's latest
 * mark in a batch is written, so a failure after a success is never overwritten by the success.
 * The marks are what the IEEE centre shows; losing a second of them when the console stops is
 * harmless, but `flush` writes them when the client stops.
 */
export interface PollMarks {
  mark(siteId: number, at: Date, failure: string | null): void;
  flush(): Promise<void>;
}

type Marks = Map<number, { at: Date; failure: string | null }>;

export function createPollMarks(db: Db, options: { delayMs?: number; onError: (error: unknown) => void }): PollMarks {
  const queue = createBatchQueue<Marks>({
    empty: () => new Map(),
    size: (batch) => batch.size,
    write,
    delayMs: options.delayMs ?? 1000,
    onError: options.onError,
  });

  function write(batch: Marks): Promise<void> {
    const marks = [...batch];
    return db
      .query(
        `UPDATE grid_site s
            SET last_poll_at = v.at,
                last_success_at = CASE WHEN v.failure IS NULL THEN v.at ELSE s.last_success_at END,
                failure = v.failure, updated_at = now()
           FROM unnest($1::bigint[], $2::timestamptz[], $3::text[]) AS v(id, at, failure)
          WHERE s.id = v.id`,
        [marks.map(([id]) => id), marks.map(([, m]) => m.at), marks.map(([, m]) => m.failure)],
      )
      .then(() => undefined);
  }

  return {
    mark(siteId, at, failure) {
      queue.waiting.set(siteId, { at, failure });
      queue.added();
    },
    flush: queue.flush,
  };
}
