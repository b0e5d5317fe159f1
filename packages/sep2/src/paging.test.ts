import { describe, expect, it } from "vitest";
import { PagingError, pageQuery, pageRequest, paginate } from "./paging.ts";

const q = (query: string) => new URLSearchParams(query);

describe("list paging", () => {
  const members = ["a", "b", "c", "d", "e"];

  it("defaults to the first member only when l is missing", () => {
    expect(pageRequest(q(""))).toEqual({ start: 0, limit: 1 });
    expect(paginate(members, pageRequest(q("")))).toEqual({ all: 5, results: 1, items: ["a"] });
  });

  it("returns the asked window with all and results", () => {
    expect(paginate(members, pageRequest(q("s=1&l=3")))).toEqual({ all: 5, results: 3, items: ["b", "c", "d"] });
    expect(paginate(members, pageRequest(q("s=4&l=10")))).toEqual({ all: 5, results: 1, items: ["e"] });
    expect(paginate(members, pageRequest(q("s=9&l=10")))).toEqual({ all: 5, results: 0, items: [] });
  });

  it("caps the limit and refuses negative or non-numeric values", () => {
    expect(pageRequest(q("l=100000")).limit).toBe(500);
    expect(() => pageRequest(q("s=-1&l=2"))).toThrow(PagingError);
    expect(() => pageRequest(q("l=ten"))).toThrow(PagingError);
  });

  it("writes the query back", () => {
    expect(pageQuery({ start: 2, limit: 10 })).toBe("?s=2&l=10");
  });
});
