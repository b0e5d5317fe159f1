import type { Queryable } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import type { DataScope } from "./data-scope.ts";

const present = (ids: readonly (number | undefined)[] | undefined) => [
  ...new Set((ids ?? []).filter((id): id is number => id !== undefined)),
];

/**
 * A filter naming an organisation or an account the caller may not see is refused as "not found",
 * as reading that record would be: a list never answers an empty page for someone else's record.
 */
export async function refuseUnseen(
  db: Queryable,
  scope: DataScope,
  ids: { organisations?: readonly (number | undefined)[]; users?: readonly (number | undefined)[] },
): Promise<void> {
  const organisations = present(ids.organisations);
  if (organisations.length > 0) {
    const seen = await first<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM organisation o
           WHERE o.id = ANY(${organisations}::bigint[]) AND o.deleted_at IS NULL AND ${scope.organisations("o")}`,
    );
    if (seen?.n !== organisations.length) throw notFound();
  }
  const users = present(ids.users);
  if (users.length > 0) {
    const seen = await first<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM sys_user u WHERE u.id = ANY(${users}::bigint[]) AND u.deleted_at IS NULL AND ${scope.users("u")}`,
    );
    if (seen?.n !== users.length) throw notFound();
  }
}
