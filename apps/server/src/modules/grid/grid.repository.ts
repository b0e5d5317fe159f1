import {
  type ActiveControl,
  COUNTRY_AUSTRALIA,
  GRID_COMMAND_KINDS,
  GRID_REGISTRATION_STATES,
  type GridRegistrationState,
  invalidControlFields,
  type ScheduleDefault,
  type ScheduleEvent,
} from "@ess/domain";
import { RESPONSE_STATUS } from "@ess/sep2";
import type { Db } from "../../db/db.ts";
import { fenceArgs, fenced, type GridFence, UNFENCED } from "./grid-fence.ts";

/**
 * grid_site, grid_exchange and grid_command as the aggregator client reads and writes them. The
 * writes of what the utility said and what the client answered (commands, the control in force,
 * registration, responses) hold only while the client's lease does (grid-fence.ts); a site's
 * row and its commands are never deleted, so a fenced statement that touched no row was fenced out.
 */

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
  /** The DERControlBase as received (the modes it sets decide whether another event overrides it). */
  controls: object;
  eventStatus: number | null;
  responseStatus: number | null;
  replyTo: string | null;
  responseRequired: string | null;
  /** Seconds of randomisation (IEEE 2030.5 RandomizableEvent), null when none. */
  randomizeStart: number | null;
  randomizeDuration: number | null;
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
  /** Event fields the control schedule needs (null for a default control). */
  creationTime: Date | null;
  eventStatusAt: Date | null;
  randomizeStart: number | null;
  randomizeDuration: number | null;
}

/** A registered site whose control schedule runs, with the control last found in force there. */
export interface ScheduledSite {
  siteId: number;
  deviceId: number;
  lfdi: string;
  active: ActiveControl | null;
  since: Date | null;
  /** The stored answer's end (ms; null: none); undefined when no answer was stored yet. */
  until?: number | null;
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

const scopeFilter = (scope: GridSitesScope) =>
  scope === "au" ? `AND shown_country_code = ${COUNTRY_AUSTRALIA} AND nmi <> ''` : "";

export function createGridRepository(db: Db, fence: GridFence = UNFENCED) {
  const lease = fenceArgs(fence);
  /** A fenced write that touched nothing: the lease is gone (unfenced, the row simply was not there). */
  const wrote = (rows: readonly unknown[]) => {
    if (rows.length === 0 && fence.lease) fence.lost();
  };
  return {
    async participants(scope: GridSitesScope): Promise<ParticipantDevice[]> {
      const { rows } = await db.query<ParticipantDevice>(
        `SELECT id::int AS "deviceId", tenant_id::int AS "tenantId", sn, nmi, shown_rated_power AS "ratedPowerKw"
           FROM device WHERE deleted_at IS NULL ${scopeFilter(scope)} ORDER BY id`,
      );
      return rows;
    },

    /** Registered sites of participating devices: their schedules run even before the utility answers. */
    async scheduledSites(scope: GridSitesScope): Promise<ScheduledSite[]> {
      const { rows } = await db.query<
        ScheduledSite & { control: ActiveControl["control"] | null; source: ActiveControl["source"] | null }
      >(
        `SELECT s.id::int AS "siteId", s.device_id::int AS "deviceId", s.lfdi, s.active_control AS control,
                s.active_source AS source, s.active_since AS since,
                (extract(epoch FROM s.active_until) * 1000)::float8 AS until
           FROM grid_site s JOIN device d ON d.id = s.device_id
          WHERE s.registered_state = $1 AND d.deleted_at IS NULL ${scopeFilter(scope)} ORDER BY s.id`,
        [GRID_REGISTRATION_STATES.registered],
      );
      return rows.map(({ control, source, ...site }) => ({
        ...site,
        active: control && source ? { control, source } : null,
        // A site never worked out has no since: its first answer is stored whatever it is.
        until: site.since ? site.until : undefined,
      }));
    },

    /**
     * The site's controls that can still count: every default, and the events not retired whose
     * end (plus the largest randomisation, an hour) is after `after`.
     */
    async scheduleInputs(siteId: number, after: Date): Promise<{ defaults: ScheduleDefault[]; events: ScheduleEvent[] }> {
      const { rows } = await db.query<ScheduleDefault & Nullable<Omit<ScheduleEvent, keyof ScheduleDefault>> & { kind: number }>(
        `SELECT kind, mrid, coalesce(program_mrid, '') AS "programMrid", coalesce(primacy, 0)::int AS primacy,
                controls AS control, (extract(epoch FROM creation_time) * 1000)::float8 AS "creationTime",
                (extract(epoch FROM start_at) * 1000)::float8 AS start, duration_s AS "durationS",
                coalesce(event_status, 0) AS status, (extract(epoch FROM event_status_at) * 1000)::float8 AS "statusAt",
                randomize_start AS "randomizeStart", randomize_duration AS "randomizeDuration"
           FROM grid_command
          WHERE site_id = $1 AND retired_at IS NULL
            AND (kind = 2 OR start_at + make_interval(secs => coalesce(duration_s, 0) + 3600) > $2)`,
        [siteId, after],
      );
      const defaults: ScheduleDefault[] = [];
      const events: ScheduleEvent[] = [];
      for (const { kind, creationTime, start, durationS, status, ...row } of rows) {
        const control = { mrid: row.mrid, programMrid: row.programMrid, primacy: row.primacy, control: row.control };
        if (kind === GRID_COMMAND_KINDS.default) defaults.push(control);
        // An invalid event (answered 253) is not followed, whether or not its answer got through.
        else if (invalidControlFields(row.control).length > 0) continue;
        // Controls stored before their creation time was kept count as the oldest.
        else
          events.push({
            ...row,
            creationTime: creationTime ?? 0,
            start: start ?? 0,
            durationS: durationS ?? 0,
            status: status ?? 0,
          });
      }
      return { defaults, events };
    },

    /** Retires the site's commands of programs not listed and defaults no longer listed; resolves to their mRIDs. */
    async retireUnlisted(siteId: number, programs: string[], defaults: string[], at: Date): Promise<string[]> {
      const { rows } = await db.query<{ mrid: string }>(
        `UPDATE grid_command SET retired_at = $4, updated_at = $4
          WHERE site_id = $1 AND retired_at IS NULL
            AND (NOT (coalesce(program_mrid, '') = ANY($2::text[])) OR (kind = 2 AND NOT (mrid = ANY($3::text[]))))
            AND ${fenced(5)}
          RETURNING mrid`,
        [siteId, programs, defaults, at, ...lease],
      );
      return rows.map((r) => r.mrid);
    },

    /** Keeps the control in force at the site (null: none), since when and until when. */
    async saveActive(siteId: number, active: ActiveControl | null, since: Date, until: Date | null): Promise<void> {
      const { rows } = await db.query(
        `UPDATE grid_site SET active_control = $2, active_source = $3, active_since = $4, active_until = $5
          WHERE id = $1 AND ${fenced(6)} RETURNING id`,
        [siteId, active && JSON.stringify(active.control), active && JSON.stringify(active.source), since, until, ...lease],
      );
      wrote(rows);
      // The control in force counts as applied at the site (the centre's mode counts, migration 0320).
      if (active)
        await db.query(
          `UPDATE grid_command SET applied_at = $3 WHERE site_id = $1 AND mrid = $2 AND applied_at IS NULL AND ${fenced(4)}`,
          [siteId, active.source.mrid, since, ...lease],
        );
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
      const { rows } = await db.query(
        `UPDATE grid_site SET registered_state = $2, end_device_href = coalesce($3, end_device_href), updated_at = now()
          WHERE id = $1 AND ${fenced(4)} RETURNING id`,
        [siteId, state, endDeviceHref, ...lease],
      );
      wrote(rows);
    },

    /** Drops exchanged documents last read or sent before the retention. */
    async pruneExchanges(before: Date): Promise<void> {
      await db.query("DELETE FROM grid_exchange WHERE coalesce(last_at, at) < $1", [before]);
    },

    /** Stores a received control; returns its row (with the last response posted, if any). */
    async upsertCommand(input: CommandInput, at: Date): Promise<CommandRow> {
      // A SELECT rather than VALUES, for its WHERE: fenced out, no row is proposed, so none is inserted or updated.
      const { rows } = await db.query<CommandRow>(
        `INSERT INTO grid_command (tenant_id, site_id, mrid, program_mrid, primacy, kind, mode, start_at, duration_s,
                                   controls, event_status, reply_to, response_required, received_at, updated_at,
                                   creation_time, event_status_at, randomize_start, randomize_duration)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16, $17, $18 WHERE ${fenced(19)}
         ON CONFLICT (site_id, mrid) DO UPDATE SET program_mrid = EXCLUDED.program_mrid, primacy = EXCLUDED.primacy,
           mode = EXCLUDED.mode, start_at = EXCLUDED.start_at, duration_s = EXCLUDED.duration_s,
           controls = EXCLUDED.controls, event_status = EXCLUDED.event_status, reply_to = EXCLUDED.reply_to,
           response_required = EXCLUDED.response_required, creation_time = EXCLUDED.creation_time,
           event_status_at = EXCLUDED.event_status_at, randomize_start = EXCLUDED.randomize_start,
           randomize_duration = EXCLUDED.randomize_duration, retired_at = NULL,
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
          input.creationTime,
          input.eventStatusAt,
          input.randomizeStart,
          input.randomizeDuration,
          ...lease,
        ],
      );
      wrote(rows);
      return rows[0] as CommandRow;
    },

    /** Event controls of a site acknowledged (received) whose last response is not final (completed, cancelled, superseded…); retired ones are done with. */
    async openEvents(siteId: number): Promise<CommandRow[]> {
      const { rows } = await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM grid_command
          WHERE site_id = $1 AND kind = 1 AND response_status IN (1, 2) AND retired_at IS NULL ORDER BY start_at, id`,
        [siteId],
      );
      return rows;
    },

    async responded(commandId: number, siteId: number, status: number, at: Date): Promise<void> {
      // Answered started: the event took effect at the site (the centre's mode counts, migration 0320).
      const { rows } = await db.query(
        `UPDATE grid_command SET response_status = $2, updated_at = $3, applied_at = coalesce(applied_at, $4)
          WHERE id = $1 AND ${fenced(5)} RETURNING id`,
        [commandId, status, at, status === RESPONSE_STATUS.started ? at : null, ...lease],
      );
      wrote(rows);
      await db.query(`UPDATE grid_site SET last_command_at = $2, updated_at = now() WHERE id = $1 AND ${fenced(3)}`, [
        siteId,
        at,
        ...lease,
      ]);
    },
  };
}

const COMMAND_COLUMNS = `id::int, site_id::int AS "siteId", mrid, primacy, kind, start_at AS "startAt", duration_s AS "durationS", controls,
  event_status AS "eventStatus", response_status AS "responseStatus", reply_to AS "replyTo", response_required AS "responseRequired",
  randomize_start AS "randomizeStart", randomize_duration AS "randomizeDuration"`;

export type GridRepository = ReturnType<typeof createGridRepository>;
