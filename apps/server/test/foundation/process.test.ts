import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startTestRuntime } from "../helpers/runtime.ts";
import { type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

const started: ServerProcess[] = [];
const start = (env: Record<string, string>) => {
  const server = startServerProcess(env);
  started.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop("SIGKILL").catch(() => {})));
});

/** Exactly one non-empty line on stderr, no stack trace. */
function expectOneLine(text: string) {
  const lines = text.trim().split("\n");
  expect(lines, text).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /);
}

// Each test starts a console process of its own: on a busy machine its start alone can take tens of seconds.
describe("start-up failures explain themselves in one line and exit non-zero", { timeout: 90_000 }, () => {
  it("a wrong configuration value", async () => {
    const server = start({ PORT: "seventy", DATA_DIR: tempDataDir() });
    expect(await server.exited()).toBe(1);
    expectOneLine(server.stderr());
    expect(server.stderr()).toContain('PORT="seventy" is not valid: expected an integer port number from 0 to 65535.');
  });

  it("a production start without the key that seals bank details", async () => {
    const server = start({ DATA_DIR: tempDataDir(), NODE_ENV: "production" });
    expect(await server.exited()).toBe(1);
    expectOneLine(server.stderr());
    expect(server.stderr()).toContain("ESS_FIELD_KEY is required in production");
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("a second console with the embedded broker on one PostgreSQL", async () => {
    const database = (await freshDatabaseUrl()) as NonNullable<Awaited<ReturnType<typeof freshDatabaseUrl>>>;
    // The first console runs in this test's process: the refusal comes from the database, not the host.
    const first = await startTestRuntime({ DATABASE_URL: database.url });
    try {
      const second = start({ DATA_DIR: tempDataDir(), DATABASE_URL: database.url });
      expect(await second.exited()).toBe(1);
      expectOneLine(second.stderr());
      expect(second.stderr()).toMatch(
        /^Another ESS Console runs on this database, and the embedded broker serves one console only/,
      );
    } finally {
      await first.close();
      await database.drop();
    }
  });

  it("an unreachable external database", async () => {
    const server = start({ DATABASE_URL: "postgres://ess@127.0.0.1:9/ess", DATABASE_CONNECT_TIMEOUT_MS: "2000" });
    expect(await server.exited()).toBe(1);
    expectOneLine(server.stderr());
    expect(server.stderr()).toMatch(/^Cannot reach the database at postgres:\/\/ess@127\.0\.0\.1:9\/ess: .+ Check DATABASE_URL/);
  });

  it("an unreachable external broker", async () => {
    const server = start({ DATA_DIR: tempDataDir(), MQTT_URL: "mqtt://127.0.0.1:9", MQTT_CONNECT_TIMEOUT_MS: "2000" });
    expect(await server.exited()).toBe(1);
    expectOneLine(server.stderr());
    expect(server.stderr()).toMatch(/^Cannot reach the MQTT broker at mqtt:\/\/127\.0\.0\.1:9.*Check MQTT_URL\.$/m);
  });

  it("a port already in use", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const server = start({ PORT: String(port), DATA_DIR: tempDataDir() });
      expect(await server.exited()).toBe(1);
      expectOneLine(server.stderr());
      expect(server.stderr().trim()).toBe(`Port ${port} on 127.0.0.1 is already in use; stop the other program or set PORT.`);
    } finally {
      blocker.close();
    }
  });
});

describe("a running console", { timeout: 90_000 }, () => {
  const dataDir = tempDataDir();

  it("prints the URL and a generated administrator password once, and stops cleanly on Ctrl-C", async () => {
    const server = start({ DATA_DIR: dataDir });
    const url = await server.ready();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const password = /Sign in as "admin" with password (\S+)/.exec(server.output())?.[1];
    expect(password).toMatch(/^(?=.*[a-zA-Z])(?=.*\d).{14}$/);

    const login = await fetch(`${url}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    });
    expect(((await login.json()) as { data: { sfFirst: boolean } }).data.sfFirst).toBe(true);

    const stoppedAt = Date.now();
    expect(await server.stop("SIGINT")).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    expect(server.output()).toContain("Stopped.");

    // Second start on the same data: the account and its password are still there, and no new
    // password is printed.
    const again = start({ DATA_DIR: dataDir });
    const url2 = await again.ready();
    expect(again.output()).not.toMatch(/with password \S+/);
    const relogin = await fetch(`${url2}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    });
    expect(((await relogin.json()) as { code: number }).code).toBe(0);

    // A second console on the same data folder is refused while the first runs.
    const intruder = start({ DATA_DIR: dataDir });
    expect(await intruder.exited()).toBe(1);
    expect(intruder.stderr()).toMatch(/is in use by another ESS Console \(pid \d+\)/);

    expect(await again.stop("SIGTERM")).toBe(0);
  });

  it("takes its administrator password from ESS_ADMIN_PASSWORD without printing it", async () => {
    const server = start({ DATA_DIR: tempDataDir(), ESS_ADMIN_PASSWORD: "Chosen2025" });
    const url = await server.ready();
    expect(server.output()).not.toContain("Chosen2025");
    const login = await fetch(`${url}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "Chosen2025" }),
    });
    expect(((await login.json()) as { data: { sfFirst: boolean } }).data.sfFirst).toBe(false);
    expect(await server.stop()).toBe(0);
  });
});
