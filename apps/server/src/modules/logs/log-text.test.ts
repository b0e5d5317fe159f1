import { describe, expect, it } from "vitest";
import { storableField, storableText, storableValue, truncateText } from "./log-text.ts";

describe("text the operation log can store", () => {
  it("keeps NUL and lone surrogates as visible escapes and leaves everything else alone", () => {
    expect(storableText("a\u0000b")).toBe("a\\u0000b");
    expect(storableText("x\uD800y")).toBe("x\\ud800y");
    expect(storableText("x\uDC01")).toBe("x\\udc01");
    expect(storableText("\uDC00\uD800")).toBe("\\udc00\\ud800");
    expect(storableText("café 😀 中文 \u0001")).toBe("café 😀 中文 \u0001");
  });

  it("escapes keys and values at any depth", () => {
    expect(storableValue({ "k\u0000": ["v\uD83D", { n: 1, ok: true, none: null }] })).toEqual({
      "k\\u0000": ["v\\ud83d", { n: 1, ok: true, none: null }],
    });
  });

  it("cuts long text without separating the halves of a character", () => {
    expect(truncateText("ab😀", 3)).toBe("ab");
    expect(truncateText("ab😀", 4)).toBe("ab😀");
    expect(truncateText("abc", 2)).toBe("ab");
    expect(storableField(`${"x".repeat(63)}😀`, 64)).toBe("x".repeat(63));
    expect(storableField(null, 10)).toBeNull();
  });
});
