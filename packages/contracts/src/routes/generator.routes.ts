import { z } from "zod";
import { defineRoute } from "../route.ts";
import { writeRecord } from "./device-settings.routes.ts";

const deviceScopeQuery = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;
const deviceScopeBody = { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] } as const;
const slot = z.object({ start: z.string().nullable(), end: z.string().nullable() });

export const generatorSettings = z.object({
  on: z.boolean(),
  ratedPowerKw: z.number().nullable(),
  availablePct: z.number().nullable(),
  controlMode: z.enum(["manual", "soc"]),
  socLower: z.number().nullable().optional(),
  socUpper: z.number().nullable().optional(),
  slots: z.array(slot).max(24),
  outputMode: z.number().int().nullable(),
  chargePowerKw: z.number().nullable(),
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
