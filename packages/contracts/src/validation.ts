import type { z } from "zod";
import { inputLeaves } from "./schema-walk.ts";

/**
 * A validation problem as an i18n key (namespace `validation`) with its interpolation values.
 * The server and the web both turn zod issues into these, so a refused field reads the same in
 * a form and in an API answer. `field` is the dotted path of the offending field.
 */
export interface FieldProblem {
  field: string;
  key: string;
  values: Record<string, string | number>;
  /** The i18n key naming the field where its schema gives one (`.meta({ label })`). */
  label?: string;
}

/** Custom rules put an i18n key (with its namespace) in the issue's message, e.g. "validation:socGap". */
export function isMessageKey(message: string): boolean {
  return /^[a-z][A-Za-z0-9]*:[A-Za-z0-9_.]+$/.test(message);
}

/** The value a client sent at `path` (undefined where nothing was sent). */
function sentAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

const bound = (value: unknown, origin: string) =>
  origin === "date" ? new Date(Number(value)).toISOString().slice(0, 10) : Number(value);

/**
 * One zod issue as a field problem. With `sent.input` (what the client sent), a field left out, null or
 * empty reads "required" whatever check refused it (a number read from missing query text is NaN,
 * which zod calls the wrong type).
 */
export function describeIssue(issue: z.core.$ZodIssue, sent?: { input: unknown }): FieldProblem {
  const field = issue.path.map(String).join(".") || "body";
  const values: Record<string, string | number> = { field };
  if (typeof sent === "object" && sent.input !== undefined && issue.code !== "custom" && issue.code !== "unrecognized_keys") {
    const value = sentAt(sent.input, issue.path);
    if (value === undefined || value === null || value === "") return { field, key: "validation:required", values };
  }
  switch (issue.code) {
    case "invalid_type":
      return { field, key: issue.input === undefined ? "validation:required" : "validation:invalidType", values };
    case "too_small": {
      values.min = bound(issue.minimum, issue.origin);
      const key =
        issue.origin === "string"
          ? "validation:tooShort"
          : issue.origin === "array"
            ? "validation:tooFewItems"
            : "validation:tooSmall";
      if (issue.origin === "string" && Number(issue.minimum) === 1) return { field, key: "validation:required", values };
      return { field, key, values };
    }
    case "too_big": {
      values.max = bound(issue.maximum, issue.origin);
      const key =
        issue.origin === "string"
          ? "validation:tooLong"
          : issue.origin === "array"
            ? "validation:tooManyItems"
            : "validation:tooBig";
      return { field, key, values };
    }
    case "invalid_format":
      // A format rule that names its own message (the console's text rule) says what it refuses.
      if (isMessageKey(issue.message)) return { field, key: issue.message, values };
      values.format = issue.format;
      return { field, key: "validation:invalidFormat", values };
    case "invalid_value":
      values.allowed = issue.values.map(String).join(", ");
      return { field, key: "validation:notAllowed", values };
    case "unrecognized_keys":
      values.keys = issue.keys.join(", ");
      return { field, key: "validation:unknownKeys", values };
    case "not_multiple_of":
      values.step = Number(issue.divisor);
      return { field, key: "validation:notMultipleOf", values };
    case "custom":
      if (isMessageKey(issue.message)) {
        for (const [k, v] of Object.entries(issue.params ?? {})) {
          if (typeof v === "string" || typeof v === "number") values[k] = v;
        }
        return { field, key: issue.message, values };
      }
      return { field, key: "validation:invalid", values };
    default:
      return { field, key: "validation:invalid", values };
  }
}

/**
 * Runs an object's cross-field rule even when other fields were refused, so a form shows every
 * problem at once (zod skips refinements of an object with issues unless told otherwise).
 */
export const evenWithOtherIssues = {
  when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null,
};

const leavesBySchema = new WeakMap<z.ZodType, ReturnType<typeof inputLeaves>>();

/** The label the schema gives the field at `path` (array indexes and record keys match `*`). */
export function labelAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let leaves = leavesBySchema.get(schema);
  if (!leaves) {
    leaves = inputLeaves(schema);
    leavesBySchema.set(schema, leaves);
  }
  const wanted = path.map(String);
  return leaves.find((l) => l.label && l.path.length === wanted.length && l.path.every((p, i) => p === "*" || p === wanted[i]))
    ?.label;
}

/** Every issue of a refused value as field problems, one per field, each with its schema's label. */
export function fieldProblems(schema: z.ZodType, issues: readonly z.core.$ZodIssue[], input: unknown): FieldProblem[] {
  const problems = issues.map((issue) => {
    const problem = describeIssue(issue, { input });
    const label = labelAt(schema, issue.path);
    return label ? { ...problem, label } : problem;
  });
  // One problem per field: the first says what is wrong; later checks on a broken value add noise.
  return problems.filter((p, i) => problems.findIndex((q) => q.field === p.field) === i);
}
