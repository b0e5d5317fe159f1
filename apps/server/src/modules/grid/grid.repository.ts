import { COUNTRY_AUSTRALIA, type GridRegistrationState } from "@ess/domain";
import type { Db } from "../../db/db.ts";

/** grid_site, grid_exchange and grid_command as the aggregator client reads and writes them. */

export type GridSitesScope = "au" | "all";

export interface ParticipantDevice {
  deviceId: number;
  tenantId: number;
  sn: string;
  nmi: string;
  ratedPowerKw: number | null;
}

export interface GridSiteRow {
  id: number;
  tenantId: number;
  deviceId: number;
  lfdi: string;
  sfdi: string;
  pin: string | null;
  registeredState: GridRegistrationState;
  endDeviceHref: string | null;
}

export interface CommandRow {
  id: number;
  siteId: number;
  mrid: string;
  /** The program's primacy: lower wins. */
  primacy: number | null;
  kind: number;
  startAt: Date | null;
  durationS: number | null;
  eventStatus: number | null;
  responseStatus: number | null;
  replyTo: string | null;
  responseRequired: string | null;
}

export interface CommandInput {
  tenantId: number;
  siteId: number;
  mrid: string;
  programMrid: string;
  primacy: number;
  kind: number;
  mode: number;
  startAt: Date | null;
  durationS: number | null;
  controls: object;
  eventStatus: number | null;
  replyTo: string | null;
  responseRequired: string | null;
}

export function createGridRepository(db: Db) {
  return {
    async participants(scope: GridSitesScope): Promise<ParticipantDevice[]> {
      const filter = scope === "au" ? `AND shown_country_code = ${COUNTRY_AUSTRALIA} AND nmi <> ''` : "";
      const { rows } = await db.query<ParticipantDevice>(
        `SELECT id::int AS "deviceId", tenant_id::int AS "tenantId", sn, nmi, shown_rated_power AS "ratedPowerKw"
           FROM device WHERE deleted_at IS NULL ${filter} ORDER BY id`,
      );
      return rows;
    },

    /** The device's site, made with the given identity the first time. */
    async ensureSite(device: ParticipantDevice, lfdi: string, sfdi: string): Promise<GridSiteRow> {
      await db.query(
        `INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi) VALUES ($1, $2, $3, $4) ON CONFLICT (device_id) DO NOTHING`,
        [device.tenantId, device.deviceId, lfdi, sfdi],
      );
      const { rows } = await db.query<GridSiteRow>(
        `SELECT id::int, tenant_id::int AS "tenantId", device_id::int AS "deviceId", lfdi, sfdi, pin,
                registered_state AS "registeredState", end_device_href AS "endDeviceHref"
           FROM grid_site WHERE device_id = $1`,
        [device.deviceId],
      );
      return rows[0] as GridSiteRow;
    },

    async setRegistration(siteId: number, state: GridRegistrationState, endDeviceHref: string | null): Promise<void> {
      await db.query(
        `UPDATE grid_site SET registered_state = $2, end_device_href = coalesce($3, end_device_href), updated_at = now() WHERE id = $1`,
        [siteId, state, endDeviceHref],
      );
    },

    /** Drops exchanged documents older than the retention. */
    async pruneExchanges(before: Date): Promise<void> {
      await db.query("DELETE FROM grid_exchange WHERE at < $1", [before]);
    },

    /** Stores a received control; returns its row (with the last response posted, if any). */
    async upsertCommand(input: CommandInput, at: Date): Promise<CommandRow> {
      const { rows } = await db.query<CommandRow>(
        `INSERT INTO grid_command (tenant_id, site_id, mrid, program_mrid, primacy, kind, mode, start_at, duration_s,
                                   controls, event_status, reply_to, response_required, received_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
         ON CONFLICT (site_id, mrid) DO UPDATE SET program_mrid = EXCLUDED.program_mrid, primacy = EXCLUDED.primacy,
           mode = EXCLUDED.mode, start_at = EXCLUDED.start_at, duration_s = EXCLUDED.duration_s,
           controls = EXCLUDED.controls, event_status = EXCLUDED.event_status, reply_to = EXCLUDED.reply_to,
           response_required = EXCLUDED.response_required,
           updated_at = CASE WHEN grid_command.controls IS DISTINCT FROM EXCLUDED.controls
                               OR grid_command.event_status IS DISTINCT FROM EXCLUDED.event_status
                             THEN EXCLUDED.updated_at ELSE grid_command.updated_at END
         RETURNING ${COMMAND_COLUMNS}`,
        [
          input.tenantId,
          input.siteId,
          input.mrid,
          input.programMrid,
          input.primacy,
          input.kind,
          input.mode,
          input.startAt,
          input.durationS,
          JSON.stringify(input.controls),
          input.eventStatus,
          input.replyTo,
          input.responseRequired,
          at,
        ],
      );
      return rows[0] as CommandRow;
    },

    /** Event controls of a site acknowledged (received) whose last response is not final (completed, cancelled, superseded…). */
    async openEvents(siteId: number): Promise<CommandRow[]> {
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM grid_command
          WHERE site_id = $1 AND kind = 1 AND response_status IN (1, 2) ORDER BY start_at, id`,
        [siteId],
      );
      return rows;
    },

    async responded(commandId: number, siteId: number, status: number, at: Date): Promise<void> {
      await db.query(`UPDATE grid_command SET response_status = $2, updated_at = $3 WHERE id = $1`, [commandId, status, at]);
      await db.query(`UPDATE grid_site SET last_command_at = $2, updated_at = now() WHERE id = $1`, [siteId, at]);
    },
  };
}

const COMMAND_COLUMNS = `id::int, site_id::int AS "siteId", mrid, primacy, kind, start_at AS "startAt", duration_s AS "durationS",
  event_status AS "eventStatus", response_status AS "responseStatus", reply_to AS "replyTo", response_required AS "responseRequired"`;

export type GridRepository = ReturnType<typeof createGridRepository>;
