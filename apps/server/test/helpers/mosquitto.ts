import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { freePort, listening, tempDataDir } from "./server-process.ts";

export const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find(existsSync);

export interface OwnMosquitto {
  url: string;
  port: number;
  /** Its folder: configuration, and the persistence file when persistence is on. */
  dir: string;
  start(): Promise<void>;
  /** SIGTERM: Mosquitto saves its database and exits; SIGKILL: it dies with what it had not saved. */
  stop(signal: "SIGTERM" | "SIGKILL"): Promise<void>;
}

/**
 * A Mosquitto of the test's own (own port, own folder), for tests that stop or kill the broker:
 * the shared one on 1883 is never touched. Anonymous clients are allowed; `lines` adds settings.
 */
export async function ownMosquitto(options: { persistence: boolean; autosaveIntervalS?: number; lines?: string[] }) {
  if (!MOSQUITTO) throw new Error("no mosquitto binary");
  const dir = tempDataDir("ess-mosquitto-");
  const port = await freePort();
  const config = join(dir, "mosquitto.conf");
  writeFileSync(
    config,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous true",
      `persistence ${options.persistence}`,
      `persistence_location ${dir}/`,
      `autosave_interval ${options.autosaveIntervalS ?? 1800}`,
      "max_queued_messages 100000",
      // Started as root, Mosquitto would switch to its own user, who cannot write this folder.
      `user ${userInfo().username}`,
      ...(options.lines ?? []),
    ].join("\n"),
  );
  let child: ChildProcess | null = null;
  const broker: OwnMosquitto = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    async start() {
      child = spawn(MOSQUITTO as string, ["-c", config], { stdio: "ignore" });
      for (let i = 0; i < 200 && !(await listening(port)); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      if (!(await listening(port))) throw new Error(`mosquitto did not listen on ${port}`);
    },
    async stop(signal) {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill(signal);
      await exited;
    },
  };
  await broker.start();
  return broker;
}
