/**
 * A Mosquitto of the bench's own, configured as docs/device-protocol.md asks of a production
 * broker (a per-session queue of 100,000 messages), on a free loopback port, stopped with the
 * bench. The machine's own Mosquitto keeps Debian's default queue of 1,000 messages, past which it
 * drops readings it has acknowledged whenever the console pauses for a fraction of a second: the
 * bench would then measure that configuration instead of the pipeline.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { freePort, tempDataDir } from "@ess/server/testing";

const BINARY = "/usr/sbin/mosquitto";

/** Starts the broker; null where Mosquitto is not installed. */
export async function startBenchMosquitto(): Promise<{ url: string; pid: number; stop(): void } | null> {
  if (!existsSync(BINARY)) return null;
  const port = await freePort();
  const conf = join(tempDataDir("ess-bench-mosquitto-"), "mosquitto.conf");
  writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, "allow_anonymous true", "persistence false", "max_queued_messages 100000", ""].join("\n"),
  );
  const child = spawn(BINARY, ["-c", conf], { stdio: "ignore" });
  // Ready once it accepts a connection.
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `mqtt://127.0.0.1:${port}`, pid: child.pid ?? 0, stop: () => child.kill("SIGTERM") };
}
