import type { z } from "zod";

/**
 * A validation problem as an i18n key (namespace `validation`) with its interpolation values.
 * The server and the web both turn zod issues into these, so a refused field reads the same in
 * a form and in an API answer. `field` is the dotted path of the offending field.
 */
export interface FieldProblem {
  field: string;
  key: string;
  values: Record<string, string | number>;
}

/** Custom rules put an i18n key (with its namespace) in the issue's message, e.g. "validation:socGap". */
export function isMessageKey(message: string): boolean {
  return /^[a-z][A-Za-z0-9]*:[A-Za-z0-9_.]+$/.test(message);
}

export function describeIssue(issue: z.core.$ZodIssue): FieldProblem {
  const field = issue.path.map(String).join(".") || "body";
  const values: Record<string, string | number> = { field };
  switch (issue.code) {
    case "invalid_type":
      return { field, key: issue.input === undefined ? "validation:required" : "validation:invalidType", values };
    case "too_small": {
      values.min = Number(issue.minimum);
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
      values.max = Number(issue.maximum);
      const key =
        issue.origin === "string"
          ? "validation:tooLong"
          : issue.origin === "array"
            ? "validation:tooManyItems"
            : "validation:tooBig";
      return { field, key, values };
    }
    case "invalid_format":
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
