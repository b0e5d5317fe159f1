import type { FieldProblem } from "@ess/contracts";
import type { ErrorKind } from "@ess/domain";

/**
 * A failure a client should see. `kind` picks the HTTP status and catalogue code (spec §8);
 * `messageKey` (an i18n key such as "devices:offline") overrides the catalogue's own message.
 */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly messageKey: string | undefined;
  readonly values: Record<string, unknown> | undefined;

  constructor(kind: ErrorKind, messageKey?: string, values?: Record<string, unknown>) {
    super(messageKey ?? `errors:${kind}`);
    this.kind = kind;
    this.messageKey = messageKey;
    this.values = values;
  }
}

/** Refused input: every offending field with its translated problem. */
export class ValidationError extends AppError {
  readonly problems: FieldProblem[];

  constructor(problems: FieldProblem[]) {
    super("validation");
    this.problems = problems;
  }
}

export const notFound = (messageKey?: string) => new AppError("notFound", messageKey);
export const forbidden = (messageKey?: string) => new AppError("forbidden", messageKey);
export const business = (messageKey: string, values?: Record<string, unknown>) => new AppError("business", messageKey, values);
