import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let brokerUp = true;

beforeAll(async () => {
  t = await createTestApp({
    brokerConnected: () => brokerUp,
    extend(app) {
      app.get("/test/explode", { config: { access: { public: true } } }, async () => {
        throw new Error("secret detail of a failing query");
      });
    },
  });
});
afterAll(() => t.close());

describe("probes", () => {
  it("answers liveness without the envelope", async () => {
    const response = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "ok" });
  });

  it("is ready only while database and broker are reachable", async () => {
    brokerUp = true;
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", checks: { database: true, broker: true, ingest: true } });
    brokerUp = false;
    const notReady = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: "not ready", checks: { database: true, broker: false, ingest: true } });
    brokerUp = true;
  });

  it("exposes Prometheus metrics including request durations", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toContain('ess_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}');
    expect(response.body).toContain("ess_process_cpu_seconds_total");
  });
});

describe("errors reach the client as the envelope, translated, without internals", () => {
  it("answers an unknown route with 404 in the caller's language", async () => {
    const en = await t.app.inject({ method: "GET", url: "/no/such/thing", headers: { "accept-language": "en-US" } });
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ code: 1, msg: "No such API route: GET /no/such/thing", data: null, errorCode: "404" });
    const ja = await t.app.inject({ method: "GET", url: "/no/such/thing", headers: { "accept-language": "ja" } });
    expect(ja.json().msg).toBe("API ルートが存在しません: GET /no/such/thing");
  });

  it("defaults to zh-CN and honours q-values in Accept-Language", async () => {
    const none = await t.app.inject({ method: "GET", url: "/sys/user/info" });
    expect(none.json().msg).toBe("未登录或登录已失效，请重新登录");
    const weighted = await t.app.inject({
      method: "GET",
      url: "/sys/user/info",
      headers: { "accept-language": "de-DE;q=1, es;q=0.8, en;q=0.5" },
    });
    expect(weighted.json().msg).toBe("No ha iniciado sesión o su sesión ya no es válida; inicie sesión de nuevo");
  });

  it("refuses bad input with code 1 and a message naming each field", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      headers: { "accept-language": "en-US" },
      payload: { username: "admin" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 1,
      msg: "Password is required",
      data: { fields: [{ field: "password", message: "Password is required" }] },
      errorCode: "400",
    });
  });

  it("names a wrong query parameter and its allowed values", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=password",
      headers: { "accept-language": "it" },
      payload: { username: "admin", password: "x" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.fields).toEqual([
      { field: "grant_type", message: "Tipo di concessione: valore non ammesso (valori possibili: admin)" },
    ]);
  });

  it("refuses a body that is not JSON as a validation error", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      headers: { "content-type": "application/json", "accept-language": "en-US" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 1, errorCode: "400", msg: "Request body is not valid" });
  });

  it("hides an unexpected failure behind the generic message, never a stack trace", async () => {
    const response = await t.app.inject({ method: "GET", url: "/test/explode", headers: { "accept-language": "en-US" } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 1,
      msg: "Unknown system error, please report it to the administrator",
      data: null,
      errorCode: "500",
    });
    expect(response.body).not.toContain("secret detail");
    expect(response.body).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
