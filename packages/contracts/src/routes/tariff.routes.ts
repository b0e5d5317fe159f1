import { z } from "zod";
import { defineRoute } from "../route.ts";
import { INT4, text } from "../text.ts";
import { writeRecord } from "./device-settings.routes.ts";

const time = text().max(5);
/** A period as the form holds it; the rules of spec §5 are the shared validator's (checkTariff). */
export const tariffPeriod = z.object({
  start: time.nullable(),
  end: time.nullable(),
  // The price rules (checkTariff) word what is wrong; the schema only keeps the number storable.
  price: z.union([text().max(32), z.number().min(INT4.min).max(INT4.max)]).nullable(),
});

export const tariffData = z.object({
  /** The user the tariff belongs to; null for the tenant's default tariff. */
  userId: z.number().int().nullable(),
  /** True when the user has no tariff of their own and this is the default. */
  isDefault: z.boolean(),
  currency: z.string(),
  buy: z.array(z.object({ start: z.string(), end: z.string(), price: z.string() })),
  sell: z.array(z.object({ start: z.string(), end: z.string(), price: z.string() })),
  updatedAt: z.number().nullable(),
});
export type TariffData = z.infer<typeof tariffData>;

export const revenueDay = z.object({
  date: z.string(),
  /** kWh bought and sold that day, and what they cost and earned at the tariff in force. */
  buyKwh: z.number(),
  sellKwh: z.number(),
  cost: z.number(),
  income: z.number(),
  /** income − cost. */
  revenue: z.number(),
});

const userScope = { entity: "user", refs: [{ in: "query", field: "userId", entity: "user" }] } as const;

export const tariffRoutes = {
  get: defineRoute({
    method: "GET",
    path: "/admin/electricity/price",
    summary: "Electricity prices of a user (their own, or the default when they have none); without userId the default tariff",
    tags: ["tariffs"],
    access: { permission: "tariff.view" },
    scope: userScope,
    query: z.object({ userId: z.coerce.number().int().positive().optional() }),
    data: tariffData,
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/electricity/price/save",
    summary: "Replace the buy and sell periods of a user's tariff (or the default with userId null)",
    tags: ["tariffs"],
    access: { permission: "tariff.edit" },
    scope: { entity: "user", refs: [{ in: "body", field: "userId", entity: "user" }] },
    body: z.object({
      userId: z.number().int().positive().nullable(),
      currency: text()
        .regex(/^[A-Z]{3}$/)
        .default("EUR"),
      buy: z.array(tariffPeriod).max(48),
      sell: z.array(tariffPeriod).max(48),
    }),
    data: tariffData,
  }),
  ofDevice: defineRoute({
    method: "GET",
    path: "/admin/electricity/price/device",
    summary: 'The tariff of a device\'s bound user; refused with "No user bound, price setting unavailable." when none',
    tags: ["tariffs"],
    access: { permission: "tariff.view" },
    scope: { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] },
    query: z.object({ deviceId: z.coerce.number().int().positive() }),
    data: tariffData,
  }),
  revenue: defineRoute({
    method: "GET",
    path: "/admin/device/revenue",
    summary: "Daily revenue of a device from its bought and sold energy at its user's tariff (device's time zone)",
    tags: ["tariffs"],
    access: { permission: "device.telemetry.view" },
    scope: { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] },
    query: z.object({
      deviceId: z.coerce.number().int().positive(),
      startDate: text().regex(/^\d{4}-\d{2}-\d{2}$/),
      endDate: text().regex(/^\d{4}-\d{2}-\d{2}$/),
    }),
    data: z.object({ currency: z.string(), timeZone: z.string(), days: z.array(revenueDay) }),
  }),
  clearProfit: defineRoute({
    method: "POST",
    path: "/admin/device/profit/clear",
    summary: "Clear a device's profit (daily, monthly, yearly and total count again from now), recorded as a command",
    tags: ["tariffs"],
    access: { permission: "device.command.send" },
    scope: { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] },
    body: z.object({ deviceId: z.number().int().positive() }),
    data: writeRecord,
  }),
} as const;
