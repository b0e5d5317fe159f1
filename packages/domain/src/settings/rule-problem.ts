/**
 * One broken rule: the field it concerns (a register id, or a path such as `buy.2.end`), the i18n
 * key of its message (with namespace) and the values the message needs. Same shape as the
 * contracts' FieldProblem, so the server answers it as a field-named refusal (code 1).
 */
export interface RuleProblem {
  field: string;
  key: string;
  values: Record<string, string | number>;
}

export const problem = (field: string, key: string, values: Record<string, string | number> = {}): RuleProblem => ({
  field,
  key,
  values: { field, ...values },
});
