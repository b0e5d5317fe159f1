import type { TariffData } from "@ess/contracts";
import { minutesOf, timeOf } from "@ess/domain";
import type { Queryable, Tx } from "../../db/db.ts";

interface PeriodRow {
  side: "buy" | "sell";
  start_minute: number;
  end_minute: number;
  price: number;
}

/** Prices as text with up to 7 decimals, trailing zeros dropped ("0.2500000" → "0.25"). */
const priceText = (price: number) => price.toFixed(7).replace(/\.?0+$/, "");

/** The tariff that applies to `userId`: their own, else the tenant's default; null when neither exists. */
export async function tariffFor(db: Queryable, tenantId: number, userId: number | null): Promise<TariffData | null> {
  const { rows } = await db.query<{ id: number; user_id: number | null; currency: string; updated_at: Date }>(
    `SELECT id, user_id, currency, updated_at FROM tariff
      WHERE tenant_id = $1 AND (user_id = $2 OR user_id IS NULL) ORDER BY user_id NULLS LAST LIMIT 1`,
    [tenantId, userId],
  );
  const t = rows[0];
  if (!t) return null;
  const periods = await db.query<PeriodRow>(
    "SELECT side, start_minute, end_minute, price FROM tariff_period WHERE tariff_id = $1 ORDER BY side, start_minute",
    [t.id],
  );
  const side = (s: "buy" | "sell") =>
    periods.rows
      .filter((p) => p.side === s)
      .map((p) => ({ start: timeOf(p.start_minute), end: timeOf(p.end_minute), price: priceText(p.price) }));
  return {
    userId: t.user_id,
    isDefault: t.user_id === null && userId !== null,
    currency: t.currency,
    buy: side("buy"),
    sell: side("sell"),
    updatedAt: t.updated_at.getTime(),
  };
}

/** The tariff id a revenue calculation uses for a device's owner (own, else default). */
export async function tariffIdFor(db: Queryable, tenantId: number, userId: number | null) {
  const { rows } = await db.query<{ id: number; currency: string }>(
    `SELECT id, currency FROM tariff WHERE tenant_id = $1 AND (user_id = $2 OR user_id IS NULL) ORDER BY user_id NULLS LAST LIMIT 1`,
    [tenantId, userId],
  );
  return rows[0] ?? null;
}

/** Replaces a tariff's periods (validated before) in one transaction. */
export async function saveTariff(
  tx: Tx,
  input: {
    tenantId: number;
    userId: number | null;
    currency: string;
    updatedBy: number;
    buy: { start: string; end: string; price: string | number }[];
    sell: { start: string; end: string; price: string | number }[];
  },
) {
  const existing = await tx.query<{ id: number }>(
    "SELECT id FROM tariff WHERE tenant_id = $1 AND user_id IS NOT DISTINCT FROM $2 FOR UPDATE",
    [input.tenantId, input.userId],
  );
  let id = existing.rows[0]?.id;
  if (id === undefined) {
    const inserted = await tx.query<{ id: number }>(
      "INSERT INTO tariff (tenant_id, user_id, currency, updated_by) VALUES ($1, $2, $3, $4) RETURNING id",
      [input.tenantId, input.userId, input.currency, input.updatedBy],
    );
    id = inserted.rows[0]?.id as number;
  } else {
    await tx.query("UPDATE tariff SET currency = $2, updated_by = $3, updated_at = now() WHERE id = $1", [
      id,
      input.currency,
      input.updatedBy,
    ]);
    await tx.query("DELETE FROM tariff_period WHERE tariff_id = $1", [id]);
  }
  const periods = [...input.buy.map((p) => ({ side: "buy", ...p })), ...input.sell.map((p) => ({ side: "sell", ...p }))].map(
    (p) => ({ side: p.side, start: minutesOf(p.start), end: minutesOf(p.end), price: String(p.price) }),
  );
  await tx.query(
    `INSERT INTO tariff_period (tariff_id, side, start_minute, end_minute, price)
     SELECT $1, p.side, p.start, p."end", p.price::numeric FROM jsonb_to_recordset($2::jsonb) AS p(side text, start int, "end" int, price text)`,
    [id, JSON.stringify(periods)],
  );
}

/**
 * Revenue per local day: each reading's growth of the day's bought and sold energy counters is
 * priced at the tariff period in force at that reading's local time (the period that started last).
 */
export async function revenueDays(
  db: Queryable,
  input: { deviceId: number; timeZone: string; startDate: string; endDate: string; tariffId: number | null },
) {
  // Readings up to the moment profit was last cleared count for nothing; the first one after counts
  // only its growth over the reading before it.
  const { rows } = await db.query<{ day: string; buy: number; sell: number; cost: number; income: number }>(
    `WITH r AS (
       SELECT h.ts, (h.ts AT TIME ZONE $2) AS local, h.buy_today, h.sell_today,
              lag(h.buy_today) OVER w AS prev_buy, lag(h.sell_today) OVER w AS prev_sell
         FROM telemetry_history h
        WHERE h.device_id = $1 AND h.ts >= ($3::date::timestamp AT TIME ZONE $2) AND h.ts < (($4::date + 1)::timestamp AT TIME ZONE $2)
       WINDOW w AS (PARTITION BY (h.ts AT TIME ZONE $2)::date ORDER BY h.ts)),
     d AS (
       SELECT local::date AS day, (extract(hour FROM local) * 60 + extract(minute FROM local))::int AS minute,
              greatest(coalesce(buy_today - prev_buy, buy_today, 0), 0) AS buy,
              greatest(coalesce(sell_today - prev_sell, sell_today, 0), 0) AS sell
         FROM r
        WHERE r.ts > coalesce((SELECT profit_cleared_at FROM device WHERE id = $1), '-infinity'::timestamptz))
     SELECT d.day::text AS day, sum(d.buy)::float8 AS buy, sum(d.sell)::float8 AS sell,
            sum(d.buy * coalesce((SELECT p.price FROM tariff_period p WHERE p.tariff_id = $5 AND p.side = 'buy' AND p.start_minute <= d.minute
                                   ORDER BY p.start_minute DESC LIMIT 1), 0))::float8 AS cost,
            sum(d.sell * coalesce((SELECT p.price FROM tariff_period p WHERE p.tariff_id = $5 AND p.side = 'sell' AND p.start_minute <= d.minute
                                   ORDER BY p.start_minute DESC LIMIT 1), 0))::float8 AS income
       FROM d GROUP BY d.day ORDER BY d.day`,
    [input.deviceId, input.timeZone, input.startDate, input.endDate, input.tariffId],
  );
  const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
  return rows.map((r) => ({
    date: r.day,
    buyKwh: round(r.buy, 3),
    sellKwh: round(r.sell, 3),
    cost: round(r.cost, 4),
    income: round(r.income, 4),
    revenue: round(r.income - r.cost, 4),
  }));
}
