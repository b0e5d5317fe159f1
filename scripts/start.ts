/**
 * `npm start`: builds the web console when its sources are newer than the last build, then runs
 * the server with its embedded database and broker and a demo fleet of simulated devices.
 * Every default can be overridden through the environment (see README).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeProblem, readManifest } from "./pinned-node.ts";

const wrongNode = nodeProblem(process.version, readManifest());
if (wrongNode) {
  process.stderr.write(`${wrongNode}\n`);
  process.exit(1);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const builtIndex = join(root, "apps/web/dist/index.html");
const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "packages/i18n/locales",
  "packages/domain/src",
  "packages/contracts/src",
];

function newestChange(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(full).map((name) => newestChange(join(path, name))));
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newestChange))) {
  process.stdout.write("Building the web console… ");
  const started = Date.now();
  // The build's list of chunks would bury the sign-in line: it is shown only when the build fails.
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (build.status !== 0) {
    process.stdout.write("failed:\n");
    process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}${build.error ? `${build.error.message}\n` : ""}`);
    process.exit(build.status ?? 1);
  }
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

const server = spawn(process.execPath, [join(root, "apps/server/src/main.ts")], {
  cwd: root,
  stdio: "inherit",
  // Development: the demo's bank details are sealed with a key made in DATA_DIR (production needs ESS_FIELD_KEY).
  env: { LOG_LEVEL: "warn", ESS_DEMO_DEVICES: "50", NODE_ENV: "development", ...process.env },
  // A group of its own: Ctrl-C and a supervisor's `kill` both reach the server exactly once,
  // through this process (a second signal would make the server skip its orderly stop).
  detached: true,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
