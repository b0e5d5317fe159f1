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
 */
export function createPresence(deps: {
  db: Db;
  log: Log;
  offlineAfterS: number;
  upgradeOfflineAfterS?: number;
  onChange?: (deviceIds: number[], status: OnlineStatus) => void;
}) {
  const written = new Map<number, number>();
  const believed = new Map<number, OnlineStatus>();
  const seen = new Set<number>();
  const timers: NodeJS.Timeout[] = [];

  const changed = (ids: number[], status: OnlineStatus) => {
    for (const id of ids) believed.set(id, status);
    if (ids.length > 0) deps.onChange?.(ids, status);
  };

  async function flushSeen(now = Date.now()): Promise<void> {
    if (seen.size === 0) return;
    const ids = [...seen];
    seen.clear();
    const at = new Date(now);
    const { rows } = await deps.db.query<{ device_id: number }>(
      `WITH prev AS (
         SELECT id, online_status FROM device WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL FOR UPDATE),
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
    );
  }

  async function sweep(): Promise<void> {
    const { rows } = await deps.db.query<{ device_id: number }>(
      `WITH gone AS (
         UPDATE device SET online_status = 0, online_changed_at = now()
          WHERE deleted_at IS NULL
            AND ((online_status = 1 AND last_seen_at < now() - make_interval(secs => $1))
              OR (online_status = 2 AND last_seen_at < now() - make_interval(secs => $2)))
         RETURNING id)
       INSERT INTO device_online_log (device_id, at, status, reason)
       SELECT id, now(), 0, 'timeout' FROM gone
       RETURNING device_id`,
      [deps.offlineAfterS, deps.upgradeOfflineAfterS ?? Math.max(deps.offlineAfterS, 600)],
    );
    changed(
      rows.map((r) => r.device_id),
      0,
    );
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
           SELECT id, online_status FROM device WHERE id = ANY($1::bigint[]) AND deleted_at IS NULL FOR UPDATE),
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
      changed(ids, status);
      return ids;
    },
    flushSeen,
    sweep,
    start() {
      timers.push(setInterval(guard("last-seen", flushSeen), 1000));
      timers.push(setInterval(guard("timeout sweep", sweep), 10_000));
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await flushSeen().catch(() => {});
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
