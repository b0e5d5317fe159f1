/**
 * `npm start`: builds the web console when its sources are newer than the last build, then runs
 * the server with its embedded database and broker and, beside it, a demo fleet of simulated
 * devices: once the console answers, this script registers them through the console's API as the
 * administrator and runs the simulator, whose devices connect over MQTT like real ones.
 * Every default can be overridden through the environment (see README).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type SimulatorProcess, startDemoFleet } from "@ess/simulator";
import {
  adminPassword,
  brokerAddress,
  consoleAddress,
  consoleReady,
  demoSettings,
  setAsideRefusedPassword,
} from "./demo-fleet.ts";
import { type DemoUtility, prepareDemoSites, startDemoUtility } from "./demo-utility.ts";
import { nodeProblem, readManifest } from "./pinned-node.ts";

const wrongNode = nodeProblem(process.version, readManifest());
if (wrongNode) {
  process.stderr.write(`${wrongNode}\n`);
  process.exit(1);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const demo = demoSettings(process.env, 50);
if ("problem" in demo) {
  process.stderr.write(`${demo.problem}\n`);
  process.exit(1);
}
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

const say = (line: string) => process.stdout.write(`${line}\n`);
const dataDir = resolve(root, process.env.DATA_DIR ?? "./data");
const admin = demo.count > 0 ? adminPassword(process.env, dataDir) : null;

// ESS_DEMO_UTILITY=1: a utility test server the console connects to as the fleet's aggregator.
let utility: DemoUtility | null = null;
if (process.env.ESS_DEMO_UTILITY === "1") {
  const port = Number(process.env.ESS_DEMO_UTILITY_PORT || "8443");
  try {
    utility = await startDemoUtility(root, dataDir, port, demo.count);
    say(`  Demo utility (IEEE 2030.5): ${utility.consoleEnv.ESS_GRID_DCAP_URL}, control ${utility.controlUrl}`);
  } catch (error) {
    say(`  Demo utility: not started: ${(error as Error).message}`);
  }
}

const server = spawn(process.execPath, [join(root, "apps/server/src/main.ts")], {
  cwd: root,
  stdio: "inherit",
  // Development: the demo's bank details are sealed with a key made in DATA_DIR (production needs ESS_FIELD_KEY).
  env: {
    LOG_LEVEL: "warn",
    NODE_ENV: "development",
    ...process.env,
    ...(admin && "password" in admin ? { ESS_ADMIN_PASSWORD: admin.password } : {}),
    ...utility?.consoleEnv,
  },
  // A group of its own: Ctrl-C and a supervisor's `kill` both reach the server exactly once,
  // through this process (a second signal would make the server skip its orderly stop).
  detached: true,
});
let serverExited = false;
let simulator: SimulatorProcess | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void simulator?.stop();
    server.kill(signal);
  });
}
server.on("exit", async (code, signal) => {
  serverExited = true;
  utility?.process.kill("SIGTERM");
  await simulator?.stop();
  process.exit(code ?? (signal ? 1 : 0));
});

/** Registers the demo fleet through the console's API once it answers, then runs the simulator. */
async function runDemoFleet(count: number, intervalMs: number) {
  const consoleUrl = consoleAddress(process.env);
  if (!admin || "problem" in admin || !consoleUrl) {
    const why = admin && "problem" in admin ? admin.problem : "PORT=0 leaves the console's address unknown in advance";
    say(`  Demo fleet: not started (${why}).`);
    return;
  }
  await consoleReady(consoleUrl, () => serverExited);
  try {
    simulator = await startDemoFleet({
      consoleUrl,
      brokerUrl: brokerAddress(process.env, consoleUrl),
      username: "admin",
      password: admin.password,
      count,
      file: join(dataDir, "demo-fleet.json"),
      intervalMs,
      onExit: (code) => say(`The demo fleet simulator stopped (exit code ${code}).`),
    });
  } catch (error) {
    // A password kept here but changed in the console since: not tried again at the next start.
    const refused = (error as { status?: number }).status === 426 && admin.file !== null && !admin.generated;
    say(`  Demo fleet: not started: ${(error as Error).message}`);
    if (refused && admin.file) {
      const aside = setAsideRefusedPassword(admin.file);
      say(`  The password kept for npm start was refused and set aside (${aside}); set ESS_ADMIN_PASSWORD to start the fleet.`);
    }
    return;
  }
  if (serverExited) await simulator.stop();
  say(`  Demo fleet: ${count} simulated devices registered through the API, reporting over MQTT every ${intervalMs / 1000} s`);
  if (utility) {
    await prepareDemoSites(utility, { consoleUrl, username: "admin", password: admin.password, count })
      .then(() => say("  Demo utility: the fleet has Australian NMIs; every other site was registered there out of band"))
      .catch((error: unknown) => say(`  Demo utility: sites not prepared: ${(error as Error).message}`));
  }
  if (admin.generated) say(`  The administrator's password, made by npm start and kept in ${admin.file}: ${admin.password}`);
  else if (admin.file) say(`  The administrator's password made by npm start is kept in ${admin.file}`);
}

if (demo.count > 0) {
  runDemoFleet(demo.count, demo.intervalMs).catch((error: unknown) => {
    if (!serverExited) say(`  Demo fleet: not started: ${(error as Error).message}`);
  });
}
