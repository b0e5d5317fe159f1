import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

const deviceId = z.coerce.number().int().positive();
const isoDay = text().regex(/^\d{4}-\d{2}-\d{2}$/);
const deviceScope = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;

/** Statistics ranges: 0 day (days of a custom frame), 1 month (days of a month), 2 year (months), 3 years. */
export const statisticsQuery = z.object({
  deviceId,
  type: z.enum(["0", "1", "2"]).default("0"),
  startDate: isoDay,
  endDate: isoDay,
});

export const revenueFigures = z.object({
  generation: z.number(),
  selfUse: z.number(),
  sales: z.number(),
  total: z.number(),
});
export const revenueRecord = revenueFigures.extend({ period: z.string() });

export const revenueAnswer = z.object({
  /** Whose tariff priced it: the device user's own or the default. */
  tariff: z.object({
    source: z.enum(["user", "default"]),
    currency: z.string(),
    buyPrice: z.number(),
    sellPrice: z.number(),
  }),
  records: z.array(revenueRecord),
  /** The whole range. */
  totals: revenueFigures,
  /** Everything the device earned up to the end of the range. */
  cumulative: z.number(),
});
export type RevenueAnswer = z.infer<typeof revenueAnswer>;

/** Device statistics beyond the raw curves and energy of device data (spec §2 Device statistics). */
export const statisticsRoutes = {
  revenue: defineRoute({
    method: "GET",
    path: "/admin/lsydeviceincomedata/list",
    summary: "Revenue per day, month or year from the tariff of the device's user (or the default tariff)",
    tags: ["statistics"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: statisticsQuery,
    data: revenueAnswer,
  }),
  export: defineRoute({
    method: "GET",
    path: "/admin/lsydeviceelectricitydata/export",
    summary: "Energy and revenue of a range as CSV",
    tags: ["statistics"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: statisticsQuery,
    data: z.string().describe("text/csv"),
    raw: true,
  }),
} as const;

export const boardAnswer = z.object({
  today: z.object({ pv: z.number(), buy: z.number(), sell: z.number(), load: z.number() }),
  total: z.object({ pv: z.number(), buy: z.number(), sell: z.number(), load: z.number() }),
  devices: z.object({ all: z.number().int(), normal: z.number().int(), offline: z.number().int(), error: z.number().int() }),
  /** Devices installed per month (the last twelve, YYYY-MM) and per country code. */
  installations: z.object({
    byMonth: z.array(z.object({ month: z.string(), count: z.number().int() })),
    byCountry: z.array(z.object({ countryCode: z.number().int().nullable(), count: z.number().int() })),
  }),
  /** kg of CO2 avoided by all PV generation. */
  co2Kg: z.number(),
  ratios: z.object({ selfSufficiency: z.number(), selfConsumption: z.number() }),
  /** Sum of the newest readings of online devices (W). */
  realtime: z.object({
    online: z.number().int(),
    pvPower: z.number(),
    loadPower: z.number(),
    batteryPower: z.number(),
    gridPower: z.number(),
  }),
});
export type BoardAnswer = z.infer<typeof boardAnswer>;

/** The data board (home) of every role: the caller's own devices, optionally one organisation's. */
export const boardRoutes = {
  total: defineRoute({
    method: "GET",
    path: "/admin/board/total",
    summary: "Data board totals over the devices the caller may see",
    tags: ["board"],
    access: { permission: "board.view" },
    query: z.object({ orgId: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).optional()) }),
    data: boardAnswer,
    scope: { entity: "device", refs: [{ in: "query", field: "orgId", entity: "organisation" }] },
  }),
} as const;
