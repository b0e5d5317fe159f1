import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

export interface SimulatorProcess {
  readonly pid: number | undefined;
  /** Stops the simulator (SIGTERM, then SIGKILL if it lingers) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Runs the simulator on a fleet file as a child process of the caller (its output goes to the
 * caller's). `onExit` hears of an exit the caller did not ask for.
 */
export function startSimulatorProcess(
  fleetFile: string,
  options: { intervalMs?: number; onExit?: (code: number | null) => void } = {},
): SimulatorProcess {
  const child = spawn(process.execPath, [MAIN, "--fleet", fleetFile, "--interval", String(options.intervalMs ?? 10_000)], {
    stdio: ["ignore", "inherit", "inherit"],
    // A group of its own: a Ctrl-C at the terminal reaches it once, through the caller's stop().
    detached: true,
  });
  let stopping = false;
  child.on("exit", (code) => {
    if (!stopping) options.onExit?.(code);
  });
  return {
    pid: child.pid,
    stop: () =>
      new Promise<void>((done) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 1500).unref();
      }),
  };
}
