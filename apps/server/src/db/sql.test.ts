import { describe, expect, it } from "vitest";
import { sql } from "./sql.ts";

describe("sql fragments", () => {
  it("numbers the parameters of nested fragments in order and keeps values out of the text", () => {
    const scope = sql`u.org_id IN (SELECT id FROM organisation WHERE path LIKE ${"/1/7/%"})`;
    const built =
      sql`SELECT * FROM sys_user u WHERE u.tenant_id = ${1} AND ${scope} AND u.name = ${"x'; DROP TABLE t; --"}`.build();
    expect(built.text).toBe(
      "SELECT * FROM sys_user u WHERE u.tenant_id = $1 AND u.org_id IN (SELECT id FROM organisation WHERE path LIKE $2) AND u.name = $3",
    );
    expect(built.values).toEqual([1, "/1/7/%", "x'; DROP TABLE t; --"]);
  });

  it("joins conditions, TRUE when there are none", () => {
    expect(sql.and([]).build().text).toBe("TRUE");
    const built = sql.and([sql`a = ${1}`, null, sql`b = ${2}`]).build();
    expect(built).toEqual({ text: "(a = $1) AND (b = $2)", values: [1, 2] });
    expect(sql`x IN (${sql.join([sql`${1}`, sql`${2}`], ", ")})`.build().text).toBe("x IN ($1, $2)");
  });
});
