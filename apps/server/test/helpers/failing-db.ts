import type { Db, QueryResult, Row } from "../../src/db/db.ts";

/**
 * A database layer that refuses, while `failing`, every statement matching `match` — as a lost
 * connection does — and passes everything else through. Lets a test take the database away from
 * one part of the server at a chosen moment (e.g. right after ingest committed its readings).
 */
export function failingDb(match: RegExp) {
  let failing = false;
  let refused = 0;
  const check = (text: string) => {
    if (!failing || !match.test(text)) return;
    refused++;
    throw Object.assign(new Error("terminating connection due to administrator command (test outage)"), { code: "57P01" });
  };
  const query =
    (q: Db["query"]) =>
    async <T = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
      check(text);
      return q<T>(text, params);
    };
  return {
    wrap(db: Db): Db {
      return {
        ...db,
        query: query(db.query),
        transaction: (fn) => db.transaction((tx) => fn({ ...tx, query: query(tx.query) })),
      };
    },
    set(on: boolean) {
      failing = on;
    },
    refused: () => refused,
  };
}
