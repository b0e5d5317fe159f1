/** A unique constraint refused the write (PostgreSQL 23505), e.g. a user name taken meanwhile. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}
