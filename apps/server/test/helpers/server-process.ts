import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Injectable } from "./api-caller.ts";

export { seedMigratedPglite } from "./pgdata-template.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  stderr(): string;
  /** Resolves with the console URL once the server says it is running. */
  ready(timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or the signal name). */
  exited(timeoutMs?: number): Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export const tempDataDir = (prefix = "ess-data-") => mkdtempSync(join(tmpdir(), prefix));

/** A TCP port free on loopback right now (for a server that must keep its port across a restart). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/** Whether something accepts TCP connections on loopback at `port` now. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/**
 * Starts the real server entry point (`node apps/server/src/main.ts`) on free ports, with the
 * given environment on top of a clean one. Sign-in needs no captcha (ESS_CAPTCHA=off) unless the
 * environment given says ESS_CAPTCHA=on.
 */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      MQTT_PORT: "0",
      LOG_LEVEL: "warn",
      // Daily energy within a test's patience (the default merges every 15 s).
      ESS_ENERGY_ROLLUP_MS: "250",
      // A killed process's job leases (the upgrade and presence sweeps among them) lapse within a
      // test's patience: 2 s instead of 15.
      ESS_JOB_LEASE_TTL_MS: "2000",
      ESS_CAPTCHA: "off",
      // A key of its own in DATA_DIR; a test of the production refusal says NODE_ENV=production.
      NODE_ENV: "development",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    out += chunk.toString();
  });
  const exit = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));

  const timeout = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms; output:\n${out}`)), ms)),
    ]);

  return {
    child,
    output: () => out,
    stderr: () => err,
    ready: (timeoutMs = 120_000) =>
      timeout(
        new Promise<string>((resolve, reject) => {
          const check = () => {
            const match = /ESS Console is running at (\S+)/.exec(out);
            if (match) return resolve(match[1] as string);
            if (child.exitCode !== null) return reject(new Error(`server exited: ${out}`));
            setTimeout(check, 50);
          };
          check();
        }),
        timeoutMs,
        "server not ready",
      ),
    // Before exiting on a start-up failure the console has opened its embedded database and run its
    // migrations: 15 s on a busy two-core machine, more under heavier load.
    exited: (timeoutMs = 75_000) => timeout(exit, timeoutMs, "server did not exit"),
    async stop(signal = "SIGINT") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return timeout(exit, 10_000, "server did not stop");
    },
  };
}

/**
 * A server process as `inject` sees an app, over real HTTP (for `apiCaller` and the helpers built
 * on it); `base` is read at each call, so it follows the server across a restart.
 */
export function overHttp(base: () => string): Injectable {
  return {
    async inject(options: object) {
      const o = options as { method: string; url: string; payload?: unknown; headers?: Record<string, string> };
      const raw = Buffer.isBuffer(o.payload);
      const body = o.payload === undefined ? undefined : raw ? new Uint8Array(o.payload as Buffer) : JSON.stringify(o.payload);
      const r = await fetch(new URL(o.url, base()), {
        method: o.method,
        headers: { ...(body !== undefined && !raw ? { "content-type": "application/json" } : {}), ...o.headers },
        body,
      });
      const text = await r.text();
      return { statusCode: r.status, json: () => JSON.parse(text) as unknown };
    },
  };
}
