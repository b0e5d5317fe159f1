import { fieldProblems } from "@ess/contracts";
import type { TFunction } from "i18next";
import type { z } from "zod";

/**
 * Checks form values with a shared zod schema and answers antd field errors, worded like the
 * server's refusals (the same i18n keys, the field named by its label). `labelOf` may name a
 * field as its form does (an organisation's `account.username` reads "Enterprise account").
 */
export function schemaErrors(
  schema: z.ZodType,
  values: unknown,
  t: TFunction,
  labelOf: (field: string) => string | undefined = () => undefined,
): { name: string[]; errors: string[] }[] {
  const result = schema.safeParse(values, { reportInput: true });
  if (result.success) return [];
  const byField = new Map<string, string>();
  for (const problem of fieldProblems(schema, result.error.issues, values)) {
    if (byField.has(problem.field)) continue;
    const leaf = problem.field.split(".").at(-1) ?? problem.field;
    const label =
      labelOf(problem.field) ?? (problem.label ? t(problem.label) : t(`fields:${leaf}`, { defaultValue: t("fields:unnamed") }));
    byField.set(problem.field, t(problem.key, { ...problem.values, field: label }));
  }
  return [...byField].map(([field, message]) => ({ name: field.split("."), errors: [message] }));
}
