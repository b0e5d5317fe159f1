import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssue, fieldProblems } from "./validation.ts";

const problems = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => describeIssue(issue));
};

describe("zod issues become translatable field problems", () => {
  const schema = z.object({
    name: z.string().min(1).max(5),
    age: z.number().int().min(18).max(99),
    tags: z.array(z.string()).min(1),
    kind: z.enum(["a", "b"]),
    email: z.email(),
  });

  it("names the field and carries the limits", () => {
    expect(problems(schema, { name: "toolong", age: 5, tags: [], kind: "c", email: "x" })).toEqual([
      { field: "name", key: "validation:tooLong", values: { field: "name", max: 5 } },
      { field: "age", key: "validation:tooSmall", values: { field: "age", min: 18 } },
      { field: "tags", key: "validation:tooFewItems", values: { field: "tags", min: 1 } },
      { field: "kind", key: "validation:notAllowed", values: { field: "kind", allowed: "a, b" } },
      { field: "email", key: "validation:invalidFormat", values: { field: "email", format: "email" } },
    ]);
  });

  it("reads a missing value or an empty required text as required", () => {
    expect(problems(schema, { name: "", tags: ["x"], kind: "a", email: "a@b.co" }).map((p) => [p.field, p.key])).toEqual([
      ["name", "validation:required"],
      ["age", "validation:required"],
    ]);
  });

  it("keeps a custom rule's message key and values", () => {
    const rule = z.object({ low: z.number(), high: z.number() }).superRefine((v, ctx) => {
      if (v.high - v.low < 10) {
        ctx.addIssue({ code: "custom", path: ["high"], message: "validation:socGap", params: { gap: 10 } });
      }
    });
    expect(problems(rule, { low: 20, high: 25 })).toEqual([
      { field: "high", key: "validation:socGap", values: { field: "high", gap: 10 } },
    ]);
  });
});

describe("refusals read as a user would say them", () => {
  const schema = z.object({
    id: z.coerce.number().int().min(1),
    code: z.number().int().meta({ label: "fields:faultCode" }),
    at: z.object({ from: z.coerce.date() }),
  });
  const problemsOf = (input: unknown) => {
    const result = schema.safeParse(input, { reportInput: true });
    return result.success ? [] : fieldProblems(schema, result.error.issues, input);
  };

  it("says required for a field left out, null or empty, whatever check refused it", () => {
    expect(problemsOf({ code: null, at: { from: "" } }).map((p) => [p.field, p.key])).toEqual([
      ["id", "validation:required"],
      ["code", "validation:required"],
      ["at.from", "validation:required"],
    ]);
    expect(problemsOf({ id: "x", code: "1", at: { from: "soon" } }).map((p) => p.key)).toEqual([
      "validation:invalidType",
      "validation:invalidType",
      "validation:invalidType",
    ]);
  });

  it("names a field by the label its schema gives it", () => {
    expect(problemsOf({ id: 1, code: 1.5, at: { from: 0 } })).toEqual([
      { field: "code", key: "validation:invalidType", values: { field: "code" }, label: "fields:faultCode" },
    ]);
  });
});
