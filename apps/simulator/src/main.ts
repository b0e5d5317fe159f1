import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFleet } from "./fleet.ts";
import type { FleetDevice } from "./fleet-spec.ts";

const usage = `Usage: simulator --fleet <fleet.json> [--interval <ms>] [--seed <n>] [--faults <per device-day>]
                 [--drops <per device-day>] [--ota-fail <0..1>] [--ota-step <ms>]
The fleet file ({brokerUrl, seed?, devices: [{sn, secret, index}]}) is written by npm start for its
demo fleet (DATA_DIR/demo-fleet.json).
`;

const { values } = parseArgs({
  options: {
    fleet: { type: "string" },
    interval: { type: "string", default: "10000" },
    seed: { type: "string" },
    faults: { type: "string", default: "0.5" },
    drops: { type: "string", default: "0.5" },
    "ota-fail": { type: "string", default: "0.1" },
    "ota-step": { type: "string", default: "300" },
  },
});

const fail = (message: string): never => {
  process.stderr.write(`${message}\n${usage}`);
  process.exit(2);
};
if (!values.fleet) fail("--fleet is required");
const number = (name: string, text: string | undefined, min: number, max: number) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max) fail(`--${name} must be a number from ${min} to ${max}`);
  return n;
};
const intervalMs = number("interval", values.interval, 100, 3_600_000);
const faultsPerDay = number("faults", values.faults, 0, 1000);
const dropsPerDay = number("drops", values.drops, 0, 1000);
const otaFailRate = number("ota-fail", values["ota-fail"], 0, 1);
const otaStepMs = number("ota-step", values["ota-step"], 0, 60_000);

const fleet = JSON.parse(readFileSync(values.fleet as string, "utf8")) as {
  brokerUrl: string;
  seed?: number;
  devices: FleetDevice[];
};
const seed = values.seed === undefined ? (fleet.seed ?? 1) : number("seed", values.seed, 0, 2 ** 31);

const running = await startFleet({
  brokerUrl: fleet.brokerUrl,
  devices: fleet.devices,
  intervalMs,
  seed,
  faultsPerDay,
  dropsPerDay,
  otaFailRate,
  otaStepMs,
});
const stop = async () => {
  await running.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
