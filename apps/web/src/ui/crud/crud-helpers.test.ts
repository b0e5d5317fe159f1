import { userCreate } from "@ess/contracts";
import dayjs from "dayjs";
import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { checkBody, placeErrors } from "./field-errors.ts";
import { filterQuery } from "./filter-query.ts";

// Shows the key and its values, so a test sees which message and which field name were chosen.
const t = ((key: string, values?: Record<string, unknown>) =>
  values?.field ? `${key}(${String(values.field)})` : key) as unknown as TFunction;

describe("the list/form layer's helpers", () => {
  it("checks a form body with the route's schema, naming each refused field", () => {
    const problems = checkBody(userCreate, { username: "a", password: "short", name: "", userType: 0, roleIds: [] }, t);
    expect(problems.map((p) => p.field).sort()).toEqual(["name", "password", "roleIds", "username"]);
    expect(problems.find((p) => p.field === "name")?.message).toBe("validation:required(fields:name)");
  });

  it("names a field as its form labels it when the form gives it a label of its own", () => {
    const problems = checkBody(userCreate, { username: "a" }, t, [{ name: "username", label: "channel:screen.account" }]);
    expect(problems.find((p) => p.field === "username")?.message).toBe("validation:tooShort(channel:screen.account)");
  });

  it("puts refusals on the inputs they name, the rest as general messages", () => {
    const placed = placeErrors(
      [
        { field: "roleIds.0", message: "bad role" },
        { field: "account.username", message: "taken" },
        { field: "id", message: "no such account" },
        { field: "roleIds", message: "second message for roles" },
        { field: "contact", message: "contact missing" },
      ],
      [{ name: "roleIds" }, { name: "account.username" }, { name: "contact.name" }, { name: "contact.phone" }],
    );
    expect(placed.fields).toEqual([
      { name: ["roleIds"], errors: ["bad role"] },
      { name: ["account", "username"], errors: ["taken"] },
      { name: ["contact", "name"], errors: ["contact missing"] },
    ]);
    expect(placed.general).toEqual(["no such account"]);
  });

  it("turns search values into the query: blanks dropped, text trimmed, ranges split", () => {
    const from = dayjs("2026-01-02T03:04:05Z");
    const to = dayjs("2026-01-03T00:00:00Z");
    const query = filterQuery(
      [
        { name: "username" },
        { name: "status", kind: "select" },
        { name: "phone" },
        { name: "when", kind: "dateRange", range: ["from", "to"] },
      ],
      { username: "  ann ", status: 0, phone: "", when: [from, to] },
    );
    expect(query).toEqual({ username: "ann", status: 0, from: "2026-01-02T03:04:05.000Z", to: "2026-01-03T00:00:00.000Z" });
  });
});
