import { API } from "@ess/contracts";
import { revenueOf } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";
import { checkDateRange } from "../telemetry/date-range.ts";
import { energyRecords } from "../telemetry/telemetry.repository.ts";
import { toCsv } from "../users/csv.ts";
import { findDevice } from "./device.repository.ts";
import { tariffOf } from "./tariff.ts";

const round = (v: number) => Math.round(v * 100) / 100;

/** Energy and revenue of one device over a range, priced by its user's tariff or the default. */
async function statisticsOf(
  db: Db,
  auth: AuthContext,
  q: { deviceId: number; type: "0" | "1" | "2"; startDate: string; endDate: string },
) {
  checkDateRange(q.type, q.startDate, q.endDate);
  const device = await findDevice(db, dataScope(auth), q.deviceId);
  if (!device) throw notFound("devices:notFound");
  // Independent reads, side by side on the pool.
  const [tariff, energy, whole] = await Promise.all([
    tariffOf(db, auth.tenantId, device.owner_user_id),
    energyRecords(db, device.id, q.type, q.startDate, q.endDate),
    first<{ self_used: number; sold: number; covers: boolean }>(
      db,
      sql`SELECT self_used, sell AS sold, last_day <= ${q.endDate}::date AS covers FROM device_energy_total
           WHERE device_id = ${device.id}`,
    ),
  ]);
  const revenue = energy.map((e) => ({ period: e.period, ...revenueOf(e, tariff) }));
  const totals = revenue.reduce(
    (a, r) => ({
      generation: round(a.generation + r.generation),
      selfUse: round(a.selfUse + r.selfUse),
      sales: round(a.sales + r.sales),
      total: round(a.total + r.total),
    }),
    { generation: 0, selfUse: 0, sales: 0, total: 0 },
  );
  // Everything up to the range's end, by the same rule as the records (self-use counted per day):
  // the device's running totals when the range reaches its latest day, else its days summed.
  const sums =
    !whole || whole.covers
      ? whole
      : await first<{ self_used: number | null; sold: number | null }>(
          db,
          sql`SELECT sum(greatest(pv - sell, 0)) AS self_used, sum(sell) AS sold
                FROM device_energy_day WHERE device_id = ${device.id} AND day <= ${q.endDate}::date`,
        );
  const cumulative = round(Number(sums?.self_used ?? 0) * tariff.buyPrice + Number(sums?.sold ?? 0) * tariff.sellPrice);
  return { tariff, energy, revenue, totals, cumulative };
}

export function registerStatisticsRoutes(app: FastifyInstance, db: Db) {
  bindRoute(app, API.statistics.revenue, async ({ auth, input }) => {
    const s = await statisticsOf(db, auth, input.query);
    return { tariff: s.tariff, records: s.revenue, totals: s.totals, cumulative: s.cumulative };
  });

  bindRoute(app, API.statistics.export, async ({ auth, input, reply, request }) => {
    const s = await statisticsOf(db, auth, input.query);
    const t = request.t;
    const columns = ["period", "pv", "load", "buy", "sell", "charge", "discharge", "generation", "selfUse", "sales", "total"];
    const csv = toCsv(
      columns.map((c) => t(`statistics:columns.${c}`)),
      s.energy.map((e, i) => {
        const r = s.revenue[i];
        return [e.period, e.pv, e.load, e.buy, e.sell, e.charge, e.discharge, r?.generation, r?.selfUse, r?.sales, r?.total];
      }),
    );
    reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="statistics.csv"').send(csv);
    return "";
  });
}
