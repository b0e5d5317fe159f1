import { API, REALTIME_PATH, type RouteContract } from "@ess/contracts";
import { isPermissionId } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const contracts = Object.values(API).flatMap((group) => Object.values(group) as RouteContract[]);

describe("route audit", () => {
  it("finds routes to audit", () => {
    expect(t.app.routeTable.length).toBeGreaterThan(contracts.length);
  });

  it("every route declares its permission or that it is public", () => {
    const undeclared = t.app.routeTable.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it("every declared permission exists in the registry", () => {
    const unknown = t.app.routeTable
      .filter((r) => r.access && "permission" in r.access && !isPermissionId(r.access.permission))
      .map((r) => `${r.method} ${r.url}`);
    expect(unknown).toEqual([]);
  });

  it("every route behind a sign-in declares the data it reaches (for the authorisation test)", () => {
    const undeclared = contracts.filter((c) => !("public" in c.access) && !c.scope).map((c) => `${c.method} ${c.path}`);
    expect(undeclared).toEqual([]);
  });

  it("every contract has a handler", () => {
    const registered = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    const missing = contracts.map((c) => `${c.method} ${c.path}`).filter((key) => !registered.has(key));
    expect(missing).toEqual([]);
  });

  it("only infrastructure routes are registered outside the contracts", () => {
    const outside = t.app.routeTable
      .filter((r) => !r.contract && r.method !== "HEAD")
      .map((r) => r.url)
      .filter((url) => !url.startsWith("/api/docs") && url !== "/metrics" && url !== "/mqtt" && url !== REALTIME_PATH);
    expect(outside).toEqual([]);
  });

  it("a protected route refuses an anonymous caller", async () => {
    const protectedRoutes = contracts.filter((c) => !("public" in c.access));
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const c of protectedRoutes) {
      const response = await t.app.inject({ method: c.method, url: c.path.replace(/:(\w+)/g, "1") });
      expect(response.statusCode, `${c.method} ${c.path}`).toBe(401);
    }
  });
});
