import type { Db } from "../../src/db/db.ts";

/**
 * Rows of the aggregator client's tables (migration 0240) written straight into the database,
 * as the client would leave them: the centre only reads them.
 */
export async function insertSite(db: Db, deviceId: number, options: { registeredState?: number; lastCommandAt?: string } = {}) {
  const lfdi = deviceId.toString(16).toUpperCase().padStart(40, "A");
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi, registered_state, last_command_at)
     VALUES (1, $1, $2, $3, $4, $5) RETURNING id`,
    [deviceId, lfdi, String(100_000_000 + deviceId), options.registeredState ?? 1, options.lastCommandAt ?? null],
  );
  return { id: rows[0]?.id as number, lfdi };
}

export async function insertExchange(
  db: Db,
  siteId: number,
  row: {
    direction: 1 | 2;
    method: string;
    path: string;
    status: number;
    resource: string;
    body: string;
    at: string;
    /** A read answered the same this many times in a row, the last at `lastAt`. */
    reads?: number;
    lastAt?: string;
  },
) {
  await db.query(
    `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, status, resource, body, at, reads, last_at)
     VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [siteId, row.direction, row.method, row.path, row.status, row.resource, row.body, row.at, row.reads ?? 1, row.lastAt ?? null],
  );
}

/**
 * Event commands of the given modes: applied (started at the site) unless `applied` is false,
 * as for events received and not yet started, or cancelled before their start.
 */
export async function insertCommands(db: Db, siteId: number, modes: number[], applied = true) {
  for (const [i, mode] of modes.entries())
    await db.query(
      `INSERT INTO grid_command (tenant_id, site_id, mrid, program_mrid, primacy, kind, mode, start_at, duration_s, event_status,
                                 response_status, received_at, applied_at)
       VALUES (1, $1, $2, 'PROG0001', 1, 1, $3, '2026-11-01T00:00:00Z', 1800, 1, $5, $4, CASE WHEN $6 THEN timestamptz '2026-11-01T00:00:00Z' END)`,
      [
        siteId,
        `MRID${siteId}${applied ? "A" : "R"}${i}`,
        mode,
        `2026-11-0${1 + (i % 9)}T0${i % 10}:00:00Z`,
        applied ? 2 : 1,
        applied,
      ],
    );
}
