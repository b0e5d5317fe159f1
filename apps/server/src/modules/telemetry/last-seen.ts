/**
 * A device's last-seen time: when the console last received anything from it (its own clock is a
 * claim, never used here). Readings keep it in the device's latest-state row (device_latest.seen_at,
 * written by the batch that stores them, migration 0310); what arrives outside readings (status,
 * replies, events, refused frames) and the online transitions keep it on the device row
 * (device.last_seen_at, written by presence.ts). The later of the two is the device's.
 *
 * Why two places: presence rewriting the device row of every reporting device every 30 s was the
 * largest share of PostgreSQL's ingest time with a large fleet, while the latest-state row is
 * rewritten by every batch anyway.
 */

/** Last seen of the device aliased `d`, in any statement (a lookup of its latest-state row). */
export const lastSeenOf = (d = "d") =>
  `greatest(${d}.last_seen_at, (SELECT seen_at FROM device_latest WHERE device_id = ${d}.id))`;

/** Last seen of `d` when the statement joins its latest-state row as `l` (a LEFT JOIN: it may have none). */
export const lastSeenJoined = (d = "d", l = "l") => `greatest(${d}.last_seen_at, ${l}.seen_at)`;

/**
 * The newest last-seen time of the fleet, for silence measured against what the console heard.
 * Latest-state rows of deleted devices are not left out (a join of the fleet per sweep): a deleted
 * device's frames are refused once its directory entry lapses, so its seen_at soon only ages.
 */
export const FLEET_LAST_SEEN = `greatest((SELECT max(last_seen_at) FROM device WHERE deleted_at IS NULL),
  (SELECT max(seen_at) FROM device_latest))`;
