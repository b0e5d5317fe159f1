import { describe, expect, it } from "vitest";
import { updateKeptPages } from "./keep-alive-outlet.tsx";

describe("which pages stay mounted", () => {
  const open = new Set(["/wel/index", "/admin/kept/index", "/admin/log/index"]);

  it("keeps a kept page while another shows, and drops it when its tab closes", () => {
    const cache = new Map<string, string>();
    updateKeptPages(cache, "/admin/kept/index", true, open, "kept page");
    updateKeptPages(cache, "/admin/log/index", false, open, "log page");
    expect([...cache]).toEqual([["/admin/kept/index", "kept page"]]);
    updateKeptPages(cache, "/admin/log/index", false, new Set(["/wel/index", "/admin/log/index"]), "log page");
    expect(cache.size).toBe(0);
  });

  it("does not keep a page judged kept for one render beside the page rendered afresh", () => {
    const cache = new Map<string, string>();
    updateKeptPages(cache, "/admin/kept/index", true, open, "kept page");
    // Arriving at the log page, one render still reads the kept route's flag…
    updateKeptPages(cache, "/admin/log/index", true, open, "log page");
    // …the next reads its own: the log page is rendered directly, so it must leave the cache.
    updateKeptPages(cache, "/admin/log/index", false, open, "log page");
    expect([...cache.keys()]).toEqual(["/admin/kept/index"]);
  });
});
