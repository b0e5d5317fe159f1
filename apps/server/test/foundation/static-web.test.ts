import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "../helpers/server-process.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let port: number;
const SECRET = "not-for-browsers-5f1c";

beforeAll(async () => {
  // A web build, with a file beside it that no request may reach.
  const root = tempDataDir("ess-static-");
  const dist = join(root, "dist");
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>ESS Console</title>");
  writeFileSync(join(dist, "assets", "app-1a2b.js"), "console.log('console');");
  writeFileSync(join(dist, "assets", "app-1a2b.js.gz"), gzipSync("console.log('console');"));
  writeFileSync(join(root, "secret.txt"), SECRET);
  t = await createTestApp({ webDist: dist });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  port = (t.app.server.address() as { port: number }).port;
}, 120_000);
afterAll(() => t.close());

/** A GET with the path exactly as written (no client normalises it): status line and body. */
function rawGet(path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: console\r\nAccept-Language: en-US\r\nConnection: close\r\n\r\n`);
  });
}

describe("the console's static files", () => {
  it("serves the build, and declares every file route public", async () => {
    expect((await rawGet("/")).body).toContain("ESS Console");
    expect((await rawGet("/assets/app-1a2b.js")).body).toContain("console.log");
    const files = t.app.routeTable.filter((r) => r.url.startsWith("/assets/"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((r) => r.access && "public" in r.access)).toBe(true);
  });

  const hostile = [
    "/x/../",
    "/x/../index.html",
    "/..",
    "/../secret.txt",
    "/assets/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/assets/%2e%2e/%2e%2e/secret.txt",
    "/..%2fsecret.txt",
    "/.%2e/secret.txt",
    "/assets\\..\\..\\secret.txt",
    "/%5c..%5csecret.txt",
    "/assets/app-1a2b.js%00",
    "/%00",
    `/${"a".repeat(300)}`,
    `/assets/${"b".repeat(4000)}.js`,
  ];
  it.each(hostile)("answers %s with a 404 envelope and nothing from outside the build", async (path) => {
    const answer = await rawGet(path);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 1, errorCode: "404" });
    expect(answer.body).not.toContain(SECRET);
  });
});
