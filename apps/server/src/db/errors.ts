/** A unique constraint refused the write (PostgreSQL 23505), e.g. a user name taken meanwhile. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}

/**
 * The operation-log line of a change could not be written, so the change was rolled back with it
 * (audited-db.ts): the caller hears that nothing was changed.
 */
export class AuditLineError extends Error {
  constructor(cause: unknown) {
    super("the operation-log line could not be written; the change was rolled back", { cause });
  }
}
