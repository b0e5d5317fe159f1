import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { API } from "./index.ts";
import type { RouteContract } from "./route.ts";
import { inputLeaves } from "./schema-walk.ts";
import { hasPlainTextRule, isBoundedNumber } from "./text.ts";

/**
 * The API's boundary rules hold for every route by construction: each text a route takes carries
 * the console's text rule, each number a finite range (the column's or the register's). A new
 * route built from `z.string()` or an unbounded `z.number()` fails here, naming the field.
 */
const routes = Object.entries(API).flatMap(([group, list]) =>
  Object.entries(list as Record<string, RouteContract>).map(([name, contract]) => ({ id: `${group}.${name}`, contract })),
);
const leavesOf = (check: (leaf: ReturnType<typeof inputLeaves>[number]) => boolean) =>
  routes.flatMap(({ id, contract }) =>
    (["query", "params", "body"] as const).flatMap((part) => {
      const schema = contract[part] as z.ZodType | undefined;
      if (!schema) return [];
      return inputLeaves(schema)
        .filter(check)
        .map((l) => `${id} ${part}.${l.path.join(".")}${l.recordKey ? " (key)" : ""}`);
    }),
  );

describe("every input of every route", () => {
  it("walks the routes' inputs", () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(leavesOf(() => true).length).toBeGreaterThan(300);
  });

  it("takes text only under the console's text rule", () => {
    expect(leavesOf((l) => l.kind === "text" && !hasPlainTextRule(l.schema))).toEqual([]);
  });

  it("takes numbers only within a finite range", () => {
    expect(leavesOf((l) => l.kind === "number" && !isBoundedNumber(l.schema))).toEqual([]);
  });

  it("names each field in refusals by a label of its own (no raw identifier on screen)", () => {
    const fields = JSON.parse(readFileSync(new URL("../../i18n/locales/en-US/fields.json", import.meta.url), "utf8")) as Record<
      string,
      string
    >;
    const unlabelled = leavesOf((l) => {
      if (l.label) return !(l.label.startsWith("fields:") && l.label.slice(7) in fields);
      const leaf = l.path.filter((p) => p !== "*").at(-1);
      return leaf !== undefined && !(leaf in fields);
    });
    expect(unlabelled).toEqual([]);
  });

  it("takes nothing unchecked", () => {
    expect(leavesOf((l) => l.kind === "unchecked" || l.kind === "other")).toEqual([]);
  });
});
