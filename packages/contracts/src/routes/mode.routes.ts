import { checkMode, minutesOf } from "@ess/domain";
import { z } from "zod";
import { pageOf, pageQuery } from "../envelope.ts";
import { textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/** "HH:mm-HH:mm" per line (or separated by commas): the periods of a mode as the form writes them. */
export function parsePeriods(text: string): { start: string | null; end: string | null }[] {
  return text
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [start, end] = s.split(/\s*[-–~]\s*/);
      return { start: start && minutesOf(start) !== null ? start : null, end: end && minutesOf(end) !== null ? end : null };
    });
}

const soc = z.number().int().min(0).max(100);

/** The mode form, checked by the shared mode rules (spec §5) — on the form and on the server. */
export const modeInput = z
  .object({
    code: text().trim().min(1).max(32).meta({ label: "fields:modeCode" }),
    name: text().trim().min(1).max(64),
    description: text().trim().min(1).max(500),
    state: z.union([z.literal(0), z.literal(1)]).default(1),
    sort: z.number().int().min(0).max(9999).default(0),
    chargeEnabled: z.boolean().default(false),
    sellEnabled: z.boolean().default(false),
    dischargeEnabled: z.boolean().default(false),
    chargeSoc: soc,
    sellSoc: soc,
    dischargeOffSoc: soc,
    periodsText: text().max(500),
  })
  .superRefine((m, ctx) => {
    for (const p of checkMode({ ...m, periods: parsePeriods(m.periodsText) })) {
      if (!p.field.startsWith("periods")) continue;
      ctx.addIssue({ code: "custom", path: ["periodsText"], message: p.key });
    }
  });

export const modeRecord = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  state: z.number().int(),
  sort: z.number().int(),
  chargeEnabled: z.boolean(),
  sellEnabled: z.boolean(),
  dischargeEnabled: z.boolean(),
  chargeSoc: z.number(),
  sellSoc: z.number(),
  dischargeOffSoc: z.number(),
  periodsText: z.string(),
  updateTime: z.string(),
});
export type ModeRecord = z.infer<typeof modeRecord>;

export const modeSwitchRecord = z.object({
  id: z.number().int(),
  at: z.number(),
  by: z.string(),
  from: z.number().nullable(),
  to: z.number(),
  state: z.string(),
});

export const modeRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/mode/page",
    summary: "Operating modes, by sort order (filter by name or code)",
    tags: ["modes"],
    access: { permission: "mode.view" },
    scope: { entity: "tenant" },
    query: pageQuery.extend({ name: textFilter, code: textFilter.meta({ label: "fields:modeCode" }) }),
    data: pageOf(modeRecord),
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/mode/save",
    summary: "Add an operating mode",
    tags: ["modes"],
    access: { permission: "mode.edit" },
    scope: { entity: "tenant" },
    body: modeInput,
    data: modeRecord,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/mode/edit",
    summary: "Change an operating mode",
    tags: ["modes"],
    access: { permission: "mode.edit" },
    scope: { entity: "tenant" },
    body: z.intersection(modeInput, z.object({ id: z.number().int().positive() })),
    data: modeRecord,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/mode/del",
    summary: "Delete an operating mode",
    tags: ["modes"],
    access: { permission: "mode.edit" },
    scope: { entity: "tenant" },
    body: z.object({ id: z.number().int().positive() }),
    data: z.null(),
  }),
  switchRecords: defineRoute({
    method: "GET",
    path: "/admin/mode/switch/page",
    summary: "Mode-switch records of a device: every change of its system mode, who, when, from and to, and how it ended",
    tags: ["modes"],
    access: { permission: "device.param.read" },
    scope: { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] },
    query: pageQuery.extend({ deviceId: z.coerce.number().int().positive() }),
    data: pageOf(modeSwitchRecord),
  }),
} as const;
