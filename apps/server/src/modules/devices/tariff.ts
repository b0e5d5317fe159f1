import { DEFAULT_TARIFF } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

export interface Tariff {
  source: "user" | "default";
  currency: string;
  buyPrice: number;
  sellPrice: number;
}

/**
 * The tariff that prices a device's energy: its user's own, else the tenant's default — from the
 * electricity price settings (modules/tariffs) where they exist, else this table's flat prices —
 * else the product default (packages/domain DEFAULT_TARIFF).
 */
export async function tariffOf(db: Queryable, tenantId: number, ownerUserId: number | null): Promise<Tariff> {
  // The electricity price settings (tariff, tariff_period: buy and sell periods over the day) win;
  // daily energy has no time of day, so each side's price is its periods' time-weighted mean.
  const periods = await db.query<{ user_id: number | null; currency: string; buy: number | null; sell: number | null }>(
    `SELECT t.user_id, t.currency,
            sum(p.price * (p.end_minute - p.start_minute)) FILTER (WHERE p.side = 'buy')
              / nullif(sum(p.end_minute - p.start_minute) FILTER (WHERE p.side = 'buy'), 0) AS buy,
            sum(p.price * (p.end_minute - p.start_minute)) FILTER (WHERE p.side = 'sell')
              / nullif(sum(p.end_minute - p.start_minute) FILTER (WHERE p.side = 'sell'), 0) AS sell
       FROM tariff t JOIN tariff_period p ON p.tariff_id = t.id
      WHERE t.tenant_id = $1 AND (t.user_id = $2 OR t.user_id IS NULL)
      GROUP BY t.id, t.user_id, t.currency ORDER BY t.user_id NULLS LAST LIMIT 1`,
    [tenantId, ownerUserId],
  );
  const priced = periods.rows[0];
  if (priced && priced.buy !== null && priced.sell !== null) {
    return {
      source: priced.user_id === null ? "default" : "user",
      currency: priced.currency,
      buyPrice: Number(priced.buy),
      sellPrice: Number(priced.sell),
    };
  }
  const { rows } = await db.query<{ user_id: number | null; currency: string; buy_price: number; sell_price: number }>(
    `SELECT user_id, currency, buy_price, sell_price FROM electricity_tariff
      WHERE tenant_id = $1 AND (user_id = $2 OR user_id IS NULL)
      ORDER BY user_id NULLS LAST LIMIT 1`,
    [tenantId, ownerUserId],
  );
  const row = rows[0];
  if (!row) return { source: "default", ...DEFAULT_TARIFF };
  return {
    source: row.user_id === null ? "default" : "user",
    currency: row.currency,
    buyPrice: Number(row.buy_price),
    sellPrice: Number(row.sell_price),
  };
}
