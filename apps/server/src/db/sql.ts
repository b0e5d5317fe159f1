import type { Queryable, QueryResult, Row } from "./db.ts";

/**
 * A piece of SQL with its parameters kept apart, composable: fragments nest inside each other
 * and are numbered `$1, $2…` only when the whole statement is built. Values never enter the text.
 *
 *   const where = sql`u.tenant_id = ${tenantId} AND ${scope.users("u")}`;
 *   await run(db, sql`SELECT * FROM sys_user u WHERE ${where}`);
 */
export class Sql {
  readonly parts: readonly string[];
  readonly values: readonly unknown[];

  constructor(parts: readonly string[], values: readonly unknown[]) {
    this.parts = parts;
    this.values = values;
  }

  /** Text with `$n` placeholders and the values in order. */
  build(offset = 0): { text: string; values: unknown[] } {
    const values: unknown[] = [];
    const text = this.emit(values, offset);
    return { text, values };
  }

  private emit(values: unknown[], offset: number): string {
    let text = this.parts[0] ?? "";
    this.values.forEach((value, i) => {
      if (value instanceof Sql) text += value.emit(values, offset);
      else {
        values.push(value);
        text += `$${values.length + offset}`;
      }
      text += this.parts[i + 1] ?? "";
    });
    return text;
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql([...strings], values);
}

/** Trusted text (identifiers and keywords chosen by the code, never by a caller). */
sql.raw = (text: string): Sql => new Sql([text], []);

/** Joins fragments with a separator (`, ` or ` AND `). */
sql.join = (fragments: readonly Sql[], separator: string): Sql => {
  if (fragments.length === 0) return sql.raw("");
  const parts = ["", ...fragments.slice(1).map(() => separator), ""];
  return new Sql(parts, fragments);
};

/** Every condition together (TRUE when there are none). */
sql.and = (conditions: readonly (Sql | null | undefined | false)[]): Sql => {
  const present = conditions.filter((c): c is Sql => c instanceof Sql);
  return present.length === 0 ? sql.raw("TRUE") : sql`(${sql.join(present, ") AND (")})`;
};

export function run<T = Row>(db: Queryable, statement: Sql): Promise<QueryResult<T>> {
  const { text, values } = statement.build();
  return db.query<T>(text, values);
}

export async function first<T = Row>(db: Queryable, statement: Sql): Promise<T | undefined> {
  return (await run<T>(db, statement)).rows[0];
}

/** A LIKE pattern that finds `text` anywhere, with the caller's % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
