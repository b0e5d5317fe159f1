import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { changedPaths, concernsTouched } from "./live-errors.ts";

describe("which refusals a form shows while typing", () => {
  it("names the leaf antd reports as changed, a picked time being a leaf", () => {
    const sparse: unknown[] = [];
    sparse[1] = { end: dayjs() };
    expect(changedPaths({ slots: sparse })).toEqual(["slots.1.end"]);
    expect(changedPaths({ account: { username: "a" } })).toEqual(["account.username"]);
    expect(changedPaths({ buy: [] })).toEqual(["buy"]);
  });

  it("shows a refusal of the changed field, of a part of it and of its list, not of another field", () => {
    const touched = new Set(["buy.1.end", "account.username"]);
    expect(concernsTouched("buy.1.end", touched)).toBe(true);
    expect(concernsTouched("buy", touched)).toBe(true);
    expect(concernsTouched("account", touched)).toBe(true);
    expect(concernsTouched("buy.0.start", touched)).toBe(false);
    expect(concernsTouched("sell", touched)).toBe(false);
  });
});
