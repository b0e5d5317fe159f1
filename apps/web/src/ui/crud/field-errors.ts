import type { TFunction } from "i18next";
import type { z } from "zod";
import { schemaErrors } from "../schema-errors.ts";
import type { FieldDef } from "./types.ts";

export interface PlacedErrors {
  /** Errors for inputs of the form, by their name path. */
  fields: { name: string[]; errors: string[] }[];
  /** Errors about something the form has no input for (shown above the buttons). */
  general: string[];
}

/**
 * Puts refusals (the schema's, or the server's field list) on the inputs they name: `roleIds.0`
 * lands on `roleIds`, `account` on `account.username`; a refusal no input matches is kept as a
 * general message.
 */
export function placeErrors(problems: { field: string; message: string }[], fields: FieldDef[]): PlacedErrors {
  const names = fields.map((f) => f.name);
  const placed: PlacedErrors = { fields: [], general: [] };
  for (const problem of problems) {
    // The input for the field or for its closest parent path; a problem with a whole group
    // (`account` missing) lands on the group's first input.
    const owner =
      names
        .filter((name) => problem.field === name || problem.field.startsWith(`${name}.`))
        .sort((a, b) => b.length - a.length)[0] ?? names.find((name) => name.startsWith(`${problem.field}.`));
    if (!owner) placed.general.push(problem.message);
    else if (!placed.fields.some((f) => f.name.join(".") === owner))
      placed.fields.push({ name: owner.split("."), errors: [problem.message] });
  }
  return placed;
}

/**
 * The schema's problems with a body, worded as the server words them but naming a field by the
 * label its form gives it when that differs from the shared field name.
 */
export function checkBody(
  schema: z.ZodType,
  body: unknown,
  t: TFunction,
  fields: FieldDef[] = [],
): { field: string; message: string }[] {
  const labelOf = (path: string) => {
    const own = fields.find((f) => f.name === path)?.label;
    return own ? t(own) : undefined;
  };
  return schemaErrors(schema, body, t, labelOf).map((p) => ({ field: p.name.join("."), message: p.errors[0] ?? "" }));
}
