import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The ceiling of every HTTP bench: a bare Fastify route in its own process, like the console's
 * server. `port` resolves once it listens (started at once, so it is up before a slow server).
 */
export function startBareFastify() {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./bare-fastify.ts", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = new Promise<number>((resolve) =>
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    }),
  );
  return { port, stop: () => child.kill("SIGTERM") };
}
