import { CATALOGUE_PAGES, KEY_QUANTITIES } from "@ess/domain";
import { z } from "zod";
import { pageOf, pageQuery } from "../envelope.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

const deviceId = z.coerce.number().int().positive();
/** Every route here reaches one device, named by `deviceId` in the query. */
const deviceScope = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;
const isoDay = text().regex(/^\d{4}-\d{2}-\d{2}$/);
const registerValue = z.union([z.number(), z.string()]).nullable();
const LIVE_PAGES = [...CATALOGUE_PAGES.map((p) => p.page)];

/** The key quantities of one reading by column (KEY_QUANTITIES), in their units. */
export const keyQuantityValues = z.record(z.string(), z.number().nullable());

export const pageAnswer = z.object({
  deviceId: z.number().int(),
  sn: z.string(),
  page: z.number().int(),
  /** Device time of the answer (ms since the epoch). */
  ts: z.number(),
  /** Engineering values by register id; null where the device sent an invalid value. */
  values: z.record(z.string(), registerValue),
  invalid: z.array(z.string()),
});
export type PageAnswerData = z.infer<typeof pageAnswer>;

export const deviceLive = z.object({
  deviceId: z.number().int(),
  sn: z.string(),
  name: z.string(),
  /** 0 offline, 1 online, 2 upgrading. */
  onlineStatus: z.number().int().min(0).max(2),
  lastSeenAt: z.number().nullable(),
  timeZone: z.string().nullable(),
  /** 1 single phase, 2 three phase; null until the device reported. */
  phaseType: z.number().int().nullable(),
  latest: z
    .object({
      ts: z.number(),
      receivedAt: z.number(),
      quantities: keyQuantityValues,
      values: z.record(z.string(), registerValue).optional(),
      invalid: z.array(z.string()),
    })
    .nullable(),
});
export type DeviceLive = z.infer<typeof deviceLive>;

export const curvePoint = z.object({
  ts: z.number(),
  pvPower: z.number().nullable(),
  loadPower: z.number().nullable(),
  batteryPower: z.number().nullable(),
  gridPower: z.number().nullable(),
  batterySoc: z.number().nullable(),
});

export const energyRecord = z.object({
  /** YYYY-MM-DD (day), YYYY-MM (month) or YYYY (year), in the device's time zone. */
  period: z.string(),
  pv: z.number(),
  load: z.number(),
  buy: z.number(),
  sell: z.number(),
  charge: z.number(),
  discharge: z.number(),
});

export const onlineLogEntry = z.object({
  at: z.number(),
  status: z.number().int().min(0).max(2),
  reason: z.enum(["message", "will", "timeout", "upgrade"]),
});

export const deviceTelemetryRoutes = {
  pageRead: defineRoute({
    method: "GET",
    path: "/admin/param/set/obtain",
    summary: "Ask a device for one live page and answer with its values (or Device is Offline / timeout)",
    tags: ["device data"],
    access: { permission: "device.param.read" },
    scope: deviceScope,
    query: z.object({
      deviceId,
      val: z.coerce
        .number()
        .int()
        .refine((p) => LIVE_PAGES.includes(p), { message: "telemetry:unknownPage" }),
    }),
    data: pageAnswer,
  }),
  latest: defineRoute({
    method: "GET",
    path: "/admin/device/telemetry/latest",
    summary: "Online status and newest reading of a device (all register values unless values=0)",
    tags: ["device data"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: z.object({ deviceId, values: z.enum(["0", "1"]).default("1") }),
    data: deviceLive,
  }),
  dayCurve: defineRoute({
    method: "GET",
    path: "/admin/lsydevicepowerdata/curve",
    summary: "Power curve of one day in the device's time zone (W, SOC %)",
    tags: ["device data"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: z.object({ deviceId, date: isoDay }),
    data: z.object({ timeZone: z.string(), points: z.array(curvePoint) }),
  }),
  energy: defineRoute({
    method: "GET",
    path: "/admin/lsydeviceelectricitydata/list",
    summary: "Energy (kWh) per day, month or year in the device's time zone (type 0 day, 1 month, 2 year)",
    tags: ["device data"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: z.object({ deviceId, type: z.enum(["0", "1", "2"]).default("0"), startDate: isoDay, endDate: isoDay }),
    data: z.object({ timeZone: z.string(), records: z.array(energyRecord) }),
  }),
  onlineLog: defineRoute({
    method: "GET",
    path: "/admin/device/onoffline/page",
    summary: "On/off-line log of a device, newest first",
    tags: ["device data"],
    access: { permission: "device.telemetry.view" },
    scope: deviceScope,
    query: pageQuery.extend({ deviceId }),
    data: pageOf(onlineLogEntry),
  }),
} as const;

/** Columns of the key quantities, for clients that label them. */
export const KEY_QUANTITY_COLUMNS = KEY_QUANTITIES.map((k) => k.column);
