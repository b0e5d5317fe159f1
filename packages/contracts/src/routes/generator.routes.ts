import { GENERATOR_RATED_POWER_KW } from "@ess/domain";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { REAL, text } from "../text.ts";
import { writeRecord } from "./device-settings.routes.ts";

const deviceScopeQuery = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;
const deviceScopeBody = { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] } as const;
const slot = z.object({ start: text().max(5).nullable(), end: text().max(5).nullable() });
/**
 * What the columns (real) hold; the generator rules (checkGenerator) word the ranges of spec §5.
 * The charging power is sent as a share of the rated power, so it can be no more than the largest.
 */
const stored = z.number().min(REAL.min).max(REAL.max);
const chargeKw = z.number().min(REAL.min).max(GENERATOR_RATED_POWER_KW.max);

export const generatorSettings = z.object({
  on: z.boolean(),
  ratedPowerKw: stored.nullable(),
  availablePct: stored.nullable(),
  controlMode: z.enum(["manual", "soc"]),
  socLower: stored.nullable().optional(),
  socUpper: stored.nullable().optional(),
  slots: z.array(slot).max(24),
  outputMode: z.number().int().min(0).max(255).nullable(),
  chargePowerKw: chargeKw.nullable(),
});
export type GeneratorSettings = z.infer<typeof generatorSettings>;

export const generatorRoutes = {
  info: defineRoute({
    method: "GET",
    path: "/admin/generator/info",
    summary: "Generator settings of a device (null until saved) and whether the grid is connected now",
    tags: ["generator"],
    access: { permission: "device.param.read" },
    scope: deviceScopeQuery,
    query: z.object({ deviceId: z.coerce.number().int().positive() }),
    data: z.object({ settings: generatorSettings.nullable(), gridConnected: z.boolean(), updatedAt: z.number().nullable() }),
  }),
  operate: defineRoute({
    method: "POST",
    path: "/admin/generator/operate",
    summary:
      "Save a device's generator settings and write them to its generator registers (spec §5 generator rules; cannot switch on while the grid is connected)",
    tags: ["generator"],
    access: { permission: "device.param.write" },
    scope: deviceScopeBody,
    body: generatorSettings.extend({ deviceId: z.number().int().positive() }),
    /** What was saved, and the change record of its write to the device. */
    data: generatorSettings.extend({ write: writeRecord }),
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/generator/del",
    summary: "Delete a device's generator settings",
    tags: ["generator"],
    access: { permission: "device.param.write" },
    scope: deviceScopeBody,
    body: z.object({ deviceId: z.number().int().positive() }),
    data: z.null(),
  }),
} as const;
