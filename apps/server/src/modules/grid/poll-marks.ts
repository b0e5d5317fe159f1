import type { Db } from "../../db/db.ts";

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

export function createPollMarks(db: Db, options: { delayMs?: number; onError: (error: unknown) => void }): PollMarks {
  const delayMs = options.delayMs ?? 1000;
  let waiting = new Map<number, { at: Date; failure: string | null }>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function write(batch: Map<number, { at: Date; failure: string | null }>): Promise<void> {
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

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.size === 0) return writing;
    const batch = waiting;
    waiting = new Map();
    writing = writing.then(() => write(batch)).catch(options.onError);
    return writing;
  }

  return {
    mark(siteId, at, failure) {
      waiting.set(siteId, { at, failure });
      timer ??= setTimeout(() => void flush(), delayMs);
    },
    flush,
  };
}
