import { describe, expect, it } from "vitest";
import { pageWindow, toPage } from "./paging.ts";

describe("paging", () => {
  it("counts pages and keeps the requested window", () => {
    expect(toPage(["a", "b"], 21, { current: 3, size: 10 })).toEqual({
      records: ["a", "b"],
      total: 21,
      size: 10,
      pages: 3,
      current: 3,
    });
    expect(toPage([], 0, { current: 1, size: 10 })).toMatchObject({ pages: 0, total: 0 });
    expect(pageWindow({ current: 3, size: 10 })).toEqual({ limit: 10, offset: 20 });
  });
});
