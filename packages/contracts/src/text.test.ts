import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inputLeaves } from "./schema-walk.ts";
import { hasPlainTextRule, INT2, INT4, id, int2, int4, isBoundedNumber, numeric, plain, text } from "./text.ts";
import { describeIssue } from "./validation.ts";

const refusal = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? null : describeIssue(result.error.issues[0] as z.core.$ZodIssue).key;
};

describe("the console's text rule", () => {
  it("refuses NUL, other control characters, DEL and lone surrogates", () => {
    for (const odd of ["a\u0000b", "\u0001", "x\u001b[31m", "\u007f", "\uD800", "a\uDFFFb", "\uDC00\uD800"]) {
      expect(refusal(text(), odd), JSON.stringify(odd)).toBe("validation:plainText");
    }
  });

  it("accepts any other text: lines and tabs, right-to-left script, emoji, CJK", () => {
    for (const fine of ["", "line one\nline two\r\n\tindented", "مرحبا بالعالم", "👩‍🔧 🔋⚡", "逆变器", "\u00a0é\u200f"]) {
      expect(refusal(text(), fine), JSON.stringify(fine)).toBeNull();
    }
  });

  it("holds for e-mail and URL formats too, and is seen on the schema", () => {
    expect(refusal(plain(z.url()), "http://a.example/\u0000")).toBe("validation:plainText");
    expect(hasPlainTextRule(text().trim().max(5))).toBe(true);
    expect(hasPlainTextRule(z.string().max(5))).toBe(false);
  });
});

describe("numbers bounded by their column", () => {
  it("refuses what the column cannot hold", () => {
    expect(refusal(int2(), INT2.max + 1)).toBe("validation:tooBig");
    expect(refusal(int4(), INT4.min - 1)).toBe("validation:tooSmall");
    expect(refusal(id(), 1e30)).toBe("validation:tooBig");
    expect(refusal(id(), 0)).toBe("validation:tooSmall");
    expect(refusal(id(), 1.5)).toBe("validation:invalidType");
    expect(refusal(numeric(9, 7), 100)).toBe("validation:tooBig");
    expect(refusal(numeric(9, 7), 99.9999999)).toBeNull();
  });

  it("knows a bounded number from an open one", () => {
    expect(isBoundedNumber(int4())).toBe(true);
    expect(isBoundedNumber(z.number().int())).toBe(true);
    expect(isBoundedNumber(z.number())).toBe(false);
    expect(isBoundedNumber(z.number().min(0))).toBe(false);
  });
});

describe("walking a request schema", () => {
  it("finds every leaf through wrappers, preprocessing, arrays and records", () => {
    const schema = z.object({
      a: z.preprocess((v) => v, text().optional()),
      b: z.array(z.object({ c: z.number().default(1) })),
      d: z.record(text(), z.boolean()).nullable(),
      e: z.union([z.literal(1), z.string()]),
      f: int4().meta({ label: "fields:faultCode" }),
    });
    expect(inputLeaves(schema).map((l) => [l.path.join("."), l.kind, l.recordKey ?? false, l.label ?? null])).toEqual([
      ["a", "text", false, null],
      ["b.*.c", "number", false, null],
      ["d", "text", true, null],
      ["d.*", "boolean", false, null],
      ["e", "choice", false, null],
      ["e", "text", false, null],
      ["f", "number", false, "fields:faultCode"],
    ]);
  });
});
