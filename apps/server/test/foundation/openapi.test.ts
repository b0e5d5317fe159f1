import { API, type RouteContract } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("OpenAPI", () => {
  it("documents every contract with its schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { openapi: string; paths: Record<string, Record<string, { summary: string }>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const group of Object.values(API)) {
      for (const c of Object.values(group) as RouteContract[]) {
        const openApiPath = c.path.replace(/:(\w+)/g, "{$1}");
        expect(doc.paths[openApiPath]?.[c.method.toLowerCase()]?.summary, `${c.method} ${c.path}`).toBe(c.summary);
      }
    }
    const login = doc.paths["/login"]?.post as unknown as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(login.requestBody.content["application/json"]?.schema.required).toEqual(["username", "password"]);
  });

  it("serves the browsable documentation at /api/docs", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });
});
