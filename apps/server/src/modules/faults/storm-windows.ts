import type { Queryable } from "../../db/db.ts";
import { run, type Sql, sql } from "../../db/sql.ts";

/** What a reminder storm is about: one fault code opening on many devices, or many devices coming on or going off line. */
export type StormTopic = { kind: "alarm"; code: number } | { kind: "online" } | { kind: "offline" };

export const topicKey = (t: StormTopic): string => (t.kind === "alarm" ? `alarm:${t.code}` : t.kind);

/**
 * The start of the storm window of a tenant's topic that something happening at `at` belongs to:
 * the current window, or a new one starting at `at` once the last has ended. Kept in the database,
 * so that every console process counts the same window.
 */
export async function stormWindowStart(db: Queryable, tenantId: number, topic: StormTopic, at: number, windowMs: number) {
  const { rows } = await db.query<{ started_at: Date }>(
    `INSERT INTO reminder_storm_window AS w (tenant_id, topic, started_at) VALUES ($1, $2, to_timestamp($3 / 1000.0))
     ON CONFLICT (tenant_id, topic) DO UPDATE SET started_at = CASE
        WHEN w.started_at <= EXCLUDED.started_at - make_interval(secs => $4) THEN EXCLUDED.started_at ELSE w.started_at END
     RETURNING started_at`,
    [tenantId, topicKey(topic), at, windowMs / 1000],
  );
  return (rows[0] as { started_at: Date }).started_at.getTime();
}

/**
 * How many distinct devices of a tenant (within `scope`, a data-scope condition on `d`, or all)
 * opened the code, or came on or went off line, in [from, to) — from the database, so alarms opened
 * and changes made by any console process count.
 */
export async function stormCount(
  db: Queryable,
  tenantId: number,
  topic: StormTopic,
  from: number,
  to: number,
  scope: Sql | null,
): Promise<number> {
  const range = (column: string) =>
    sql`${sql.raw(column)} >= to_timestamp(${from} / 1000.0) AND ${sql.raw(column)} < to_timestamp(${to} / 1000.0)`;
  const where = sql.and([sql`d.tenant_id = ${tenantId}`, sql`d.deleted_at IS NULL`, scope]);
  const statement =
    topic.kind === "alarm"
      ? sql`SELECT count(DISTINCT a.device_id)::int AS n FROM device_alarm a JOIN device d ON d.id = a.device_id
             WHERE a.code = ${topic.code} AND ${range("a.opened_seen_at")} AND ${where}`
      : sql`SELECT count(DISTINCT l.device_id)::int AS n FROM device_online_log l JOIN device d ON d.id = l.device_id
             WHERE l.status = ${topic.kind === "online" ? 1 : 0} AND ${range("l.at")} AND ${where}`;
  const { rows } = await run<{ n: number }>(db, statement);
  return rows[0]?.n ?? 0;
}
