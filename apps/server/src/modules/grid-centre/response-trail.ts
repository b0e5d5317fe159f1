import type { IeeeResponseRecord } from "@ess/contracts";
import { GRID_DIRECTIONS, GRID_RESPONSE_OUTCOMES } from "@ess/domain";
import { type Sql, sql } from "../../db/sql.ts";

/**
 * The response trail of the IEEE device centre: the DERControlResponse documents the console
 * posted for a site (grid_exchange, migration 0240), read back from what was stored — the posted
 * XML names the control (subject) and the status, the row keeps the utility's HTTP answer. A post
 * the utility did not take is followed by another of the same status once the client tries again
 * (site-controls.ts records a response only once it was accepted), so a failed one is "sent again"
 * when a later one of the same control and status was accepted, "still being retried" otherwise.
 * Kept as long as the exchanged documents are (GRID_EXCHANGE_RETENTION_DAYS).
 */

export interface ResponseRow {
  id: number;
  at: Date;
  mrid: string | null;
  program_mrid: string | null;
  status: number | null;
  http_status: number | null;
  outcome: number;
}

const O = GRID_RESPONSE_OUTCOMES;
const POSTED = `x.direction = ${GRID_DIRECTIONS.sent} AND x.method = 'POST' AND x.resource = 'DERControlResponse'`;
const SUBJECT = (alias: string) => `substring(${alias}.body from '<subject>([^<]*)</subject>')`;
const STATUS = (alias: string) => `substring(${alias}.body from '<status>([0-9]{1,3})</status>')`;
const ACCEPTED = (alias: string) => `${alias}.status BETWEEN 200 AND 299`;

export const RESPONSE_SELECT = sql.raw(`x.id, x.at, ${SUBJECT("x")} AS mrid, c.program_mrid, ${STATUS("x")}::int AS status,
  x.status AS http_status,
  CASE WHEN ${ACCEPTED("x")} THEN ${O.accepted}
       WHEN EXISTS (SELECT 1 FROM grid_exchange y
                     WHERE y.site_id = x.site_id AND y.direction = x.direction AND y.resource = x.resource AND y.id > x.id
                       AND ${ACCEPTED("y")} AND ${SUBJECT("y")} = ${SUBJECT("x")} AND ${STATUS("y")} = ${STATUS("x")})
       THEN ${O.resent} ELSE ${O.retrying} END AS outcome`);
// The program is the command's: the trail joins the site's command of the same mRID.
export const RESPONSE_FROM = sql.raw(
  `grid_exchange x LEFT JOIN grid_command c ON c.site_id = x.site_id AND c.mrid = ${SUBJECT("x")}`,
);
export const RESPONSE_SORT = { id: "x.id", time: "x.at" } as const;

/** One site's posted responses; a device without a site has none. */
export function responseWhere(siteId: number | null): Sql {
  return sql.and([sql`x.site_id = ${siteId ?? 0}`, sql.raw(POSTED)]);
}

export const toResponseRecord = (r: ResponseRow): IeeeResponseRecord => ({
  id: r.id,
  time: new Date(r.at).toISOString(),
  mrid: r.mrid ?? "",
  programMrid: r.program_mrid,
  status: r.status,
  httpStatus: r.http_status,
  outcome: r.outcome,
});
