import type { Queryable } from "../../db/db.ts";
import type { WriteRow } from "./write-records.repository.ts";

const RETURNING = `RETURNING w.id, w.tenant_id, w.device_id, w.bulk_id, w.kind, w.changes, w.command, w.state, w.refusal,
  w.refusal_key, w.attempts, w.created_by_name, w.created_at, w.sent_at, w.finished_at, w.expires_at, w.request_id, w.deadline_at`;

/** A bulk operation with nobody sending it: no holder, or the holder stopped renewing. */
const UNHELD = "(b.runner_until IS NULL OR b.runner_until < now())";

/**
 * Ends the records whose time is up, whichever process sent or queued them: sent and unanswered
 * `graceMs` past their deadline (timed out; the process waiting for the answer ends its own at the
 * deadline, and an answer it received in time may take a moment to be written — the sweep is for
 * records whose process is gone), queued past their expiry (timed out), and, of a bulk operation
 * nobody sends any more that was not to wait for offline devices, those of devices offline now
 * (refused, as its sender would have). Each statement only moves open records, so processes
 * sweeping at once end each record once.
 */
export async function endOverdueWrites(db: Queryable, graceMs = 0): Promise<WriteRow[]> {
  const timedOut = await db.query<WriteRow>(
    `UPDATE device_write w SET state = 'timed_out', refusal = 'timeout', refusal_key = 'settings:refusal.timeout',
            finished_at = now(), deadline_at = NULL
      WHERE w.state = 'sent' AND w.deadline_at < now() - make_interval(secs => $1::float8 / 1000) ${RETURNING}`,
    [graceMs],
  );
  const expired = await db.query<WriteRow>(
    `UPDATE device_write w SET state = 'timed_out', refusal = 'offlineExpired', refusal_key = 'settings:refusal.offlineExpired',
            finished_at = now()
      WHERE w.state = 'queued' AND w.expires_at < now() ${RETURNING}`,
  );
  const refused = await db.query<WriteRow>(
    `UPDATE device_write w SET state = 'refused', refusal = 'offline', refusal_key = 'telemetry:deviceOffline', finished_at = now()
       FROM device_bulk_operation b, device d
      WHERE w.state = 'queued' AND b.id = w.bulk_id AND NOT b.queue_if_offline AND ${UNHELD}
        AND d.id = w.device_id AND d.online_status = 0 ${RETURNING}`,
  );
  return [...timedOut.rows, ...expired.rows, ...refused.rows];
}

/**
 * Online devices with queued records that nobody is sending: left by a process that stopped (a
 * device's queue half sent, a bulk operation whose holder is gone) or queued again when publishing
 * failed. Only devices heard from since `heardSince` (this process's start: an online status
 * written before a restart is no proof that the device is connected again); records younger than
 * `graceMs` are left to the request that made them; a device with a record in flight waits for its end.
 */
export async function devicesToResume(
  db: Queryable,
  options: { limit: number; graceMs: number; heardSince: Date },
): Promise<{ id: number; sn: string }[]> {
  const { rows } = await db.query<{ id: number; sn: string }>(
    `SELECT DISTINCT d.id, d.sn FROM device_write w
       JOIN device d ON d.id = w.device_id
       LEFT JOIN device_bulk_operation b ON b.id = w.bulk_id
      WHERE w.state = 'queued' AND d.online_status <> 0 AND d.deleted_at IS NULL AND d.last_seen_at >= $3
        AND w.created_at < now() - make_interval(secs => $2::float8 / 1000)
        AND (w.bulk_id IS NULL OR ${UNHELD})
        AND NOT EXISTS (SELECT 1 FROM device_write s WHERE s.device_id = w.device_id AND s.state = 'sent')
      LIMIT $1`,
    [options.limit, options.graceMs, options.heardSince],
  );
  return rows;
}

/** Holds (or renews the hold on) a bulk operation for its sender until `leaseMs` from now. */
export async function holdBulk(db: Queryable, bulkId: number, leaseMs: number): Promise<void> {
  await db.query(
    "UPDATE device_bulk_operation SET runner_until = now() + make_interval(secs => $2::float8 / 1000) WHERE id = $1",
    [bulkId, leaseMs],
  );
}

/** Lets go of a bulk operation: what is left queued (devices offline) is sent when they return. */
export async function releaseBulk(db: Queryable, bulkId: number): Promise<void> {
  await db.query("UPDATE device_bulk_operation SET runner_until = NULL WHERE id = $1", [bulkId]);
}
