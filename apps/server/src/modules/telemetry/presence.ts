import type { Db } from "../../db/db.ts";
import type { Log } from "./log.ts";

export type OnlineStatus = 0 | 1 | 2;
export type OnlineReason = "message" | "will" | "timeout" | "upgrade";

// A device heard from keeps its last-seen time at most this stale, so a fleet reporting every
// 10 s costs one write per device per interval rather than per frame.
const SEEN_WRITE_INTERVAL_MS = 30_000;

/**
 * Online status (0 offline, 1 online, 2 upgrading) and the on/off-line log. A device turns online
 * when anything arrives from it, offline with its `offline` status (the last will) or when nothing
 * arrived for `offlineAfterS` (upgrading devices get `upgradeOfflineAfterS`, as they reboot).
 * Every transition is one row of device_online_log, written in the same statement as the change.
 *
 * Silence is a device's only when the console could hear it. On the embedded broker the console
 * is the broker: what reaches it is heard. On an external broker (`listening` set) the console can
 * be deaf while connected — its subscriptions lost — so a device counts as silent only against
 * the fleet: nothing from it for `offlineAfterS` before the newest message from any device (the
 * newest `last_seen_at`, written by every process). A deaf console hears no device, so none is
 * marked offline as if the fleet had gone quiet. While the ingest watchdog reports a stall, silence
 * also counts from its re-subscription: if that does not bring messages back, the devices end
 * offline `offlineAfterS` later instead of staying online for good (a lone device that died
 * without a last will ends the same way).
 *
 * Device rows are locked in id order and FOR NO KEY UPDATE (no key column changes here): the
 * foreign-key checks of the ingest's and the energy merge's inserts take KEY SHARE on the same
 * rows, which that mode does not block, so they never wait on presence; with FOR UPDATE the two
 * deadlocked under load with 100,000 devices.
 */
export function createPresence(deps: {
  db: Db;
  log: Log;
  offlineAfterS: number;
  upgradeOfflineAfterS?: number;
  /** `at`: the time the change was written to the on/off-line log. */
  onChange?: (deviceIds: number[], status: OnlineStatus, at: number) => void;
  listening?: { resubscribedAt(): Date | null };
}) {
  const written = new Map<number, number>();
  const believed = new Map<number, OnlineStatus>();
  const seen = new Set<number>();
  const timers: NodeJS.Timeout[] = [];

  const changed = (ids: number[], status: OnlineStatus, at: number) => {
    for (const id of ids) believed.set(id, status);
    if (ids.length > 0) deps.onChange?.(ids, status, at);
  };

  async function flushSeen(now = Date.now()): Promise<void> {
    if (seen.size === 0) return;
    const ids = [...seen];
    seen.clear();
    const at = new Date(now);
    const { rows } = await deps.db.query<{ device_id: number }>(
      `WITH prev AS (
         SELECT id, online_status FROM device WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL ORDER BY id FOR NO KEY UPDATE),
       upd AS (
         UPDATE device d SET last_seen_at = $2,
                -- A device without an installation date gets its first connection's (spec §3 Device).
                installed_at = coalesce(d.installed_at, $2),
                online_status = CASE WHEN prev.online_status = 0 THEN 1 ELSE prev.online_status END,
                online_changed_at = CASE WHEN prev.online_status = 0 THEN $2 ELSE d.online_changed_at END
           FROM prev WHERE d.id = prev.id
         RETURNING d.id, prev.online_status AS was)
       INSERT INTO device_online_log (device_id, at, status, reason)
       SELECT id, $2, 1, 'message' FROM upd WHERE was = 0
       RETURNING device_id`,
      [ids, at],
    );
    for (const id of ids) {
      written.set(id, now);
      if (!believed.has(id)) believed.set(id, 1);
    }
    changed(
      rows.map((r) => r.device_id),
      1,
      now,
    );
  }

  // What silence is measured against: now, or on an external broker the newest message heard.
  const heard = deps.listening ? "(SELECT least(now(), max(last_seen_at)) FROM device WHERE deleted_at IS NULL)" : "now()";

  /** Devices silent past their time go offline; devices shown upgrading with nothing under way get their real status. */
  async function sweep(): Promise<void> {
    const { rows } = await deps.db.query<{ device_id: number; at: Date }>(
      `WITH fleet AS (SELECT ${heard} AS heard),
       gone AS (
         UPDATE device d SET online_status = 0, online_changed_at = now()
           FROM fleet
          WHERE d.deleted_at IS NULL AND d.online_status IN (1, 2)
            AND (d.last_seen_at < fleet.heard - make_interval(secs => CASE WHEN d.online_status = 2 THEN $2::float8 ELSE $1::float8 END)
              OR ($3::timestamptz IS NOT NULL AND greatest(d.last_seen_at, $3::timestamptz)
                    < now() - make_interval(secs => CASE WHEN d.online_status = 2 THEN $2::float8 ELSE $1::float8 END)))
         RETURNING d.id)
       INSERT INTO device_online_log (device_id, at, status, reason)
       SELECT id, now(), 0, 'timeout' FROM gone
       RETURNING device_id, at`,
      [
        deps.offlineAfterS,
        deps.upgradeOfflineAfterS ?? Math.max(deps.offlineAfterS, 600),
        deps.listening?.resubscribedAt() ?? null,
      ],
    );
    changed(
      rows.map((r) => r.device_id),
      0,
      rows[0]?.at.getTime() ?? Date.now(),
    );
    await restoreAfterUpgrade();
  }

  /**
   * Devices shown upgrading (2) with no upgrade under way any more — it succeeded, failed for any
   * cause, was cancelled, or waits to be sent again — get their real status back: online if heard
   * from within `offlineAfterS`, else offline (logged with reason "upgrade"). Whoever ended the
   * upgrade (a device's report, the OTA dispatcher or a route, in any process, before or after a
   * restart) calls it for its devices; the timeout sweep calls it for all, so none stays behind.
   * Under way: accepted or upgrading (1, 2), or an order sent and not answered yet.
   */
  async function restoreAfterUpgrade(deviceIds: number[] | null = null): Promise<number[]> {
    if (deviceIds?.length === 0) return [];
    const { rows } = await deps.db.query<{ device_id: number; status: OnlineStatus; at: Date }>(
      `WITH prev AS (
         SELECT d.id, CASE WHEN d.last_seen_at >= now() - make_interval(secs => $2) THEN 1 ELSE 0 END AS real
           FROM device d
          WHERE d.online_status = 2 AND d.deleted_at IS NULL AND ($1::bigint[] IS NULL OR d.id = ANY($1::bigint[]))
            AND NOT EXISTS (SELECT 1 FROM device_upgrade u
                             WHERE u.device_id = d.id AND (u.status IN (1, 2) OR (u.status = 0 AND u.request_id IS NOT NULL)))
          ORDER BY d.id FOR NO KEY UPDATE OF d),
       upd AS (
         UPDATE device d SET online_status = prev.real, online_changed_at = now()
           FROM prev WHERE d.id = prev.id
         RETURNING d.id, prev.real)
       INSERT INTO device_online_log (device_id, at, status, reason)
       SELECT id, now(), real, 'upgrade' FROM upd
       RETURNING device_id, status, at`,
      [deviceIds, deps.offlineAfterS],
    );
    for (const status of [0, 1] as const) {
      const of = rows.filter((r) => r.status === status);
      changed(
        of.map((r) => r.device_id),
        status,
        of[0]?.at.getTime() ?? Date.now(),
      );
    }
    return rows.map((r) => r.device_id);
  }

  const guard = (what: string, fn: () => Promise<void>) => () =>
    void fn().catch((error) => deps.log.error({ err: error }, `presence: ${what} failed`));

  return {
    /** Devices heard from; written at most every 30 s each, at once when not known online. */
    noteSeen(deviceIds: Iterable<number>) {
      const now = Date.now();
      for (const id of deviceIds) {
        const status = believed.get(id);
        if (status === undefined || status === 0 || now - (written.get(id) ?? 0) >= SEEN_WRITE_INTERVAL_MS) seen.add(id);
      }
    },
    /** Sets a status now (a will, an upgrade starting or ending); returns the devices that changed. */
    async setStatus(deviceIds: number[], status: OnlineStatus, reason: OnlineReason): Promise<number[]> {
      const at = new Date();
      const { rows } = await deps.db.query<{ device_id: number }>(
        `WITH prev AS (
           SELECT id, online_status FROM device WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL ORDER BY id FOR NO KEY UPDATE),
         upd AS (
           UPDATE device d SET online_status = $2, online_changed_at = $3,
                  last_seen_at = CASE WHEN $2 = 0 THEN d.last_seen_at ELSE $3 END
             FROM prev WHERE d.id = prev.id AND prev.online_status <> $2
           RETURNING d.id)
         INSERT INTO device_online_log (device_id, at, status, reason)
         SELECT id, $3, $2, $4 FROM upd
         RETURNING device_id`,
        [deviceIds, status, at, reason],
      );
      for (const id of deviceIds) believed.set(id, status);
      const ids = rows.map((r) => r.device_id);
      changed(ids, status, at.getTime());
      return ids;
    },
    flushSeen,
    sweep,
    restoreAfterUpgrade,
    /**
     * This process's last-seen writes (what its own ingest heard). The timeout sweep is not here:
     * it runs in one process of the console, under the `presence-sweep` lease (cluster/console-jobs.ts).
     */
    start() {
      timers.push(setInterval(guard("last-seen", flushSeen), 1000));
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await flushSeen().catch(() => {});
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
