import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFleet } from "./fleet.ts";
import type { DeviceIdentity } from "./virtual-device.ts";

const { values } = parseArgs({
  options: {
    fleet: { type: "string" },
    interval: { type: "string", default: "10000" },
  },
});

if (!values.fleet) {
  process.stderr.write("Usage: simulator --fleet <fleet.json> [--interval <ms>]\n");
  process.exit(2);
}

const fleet = JSON.parse(readFileSync(values.fleet, "utf8")) as { brokerUrl: string; devices: DeviceIdentity[] };
const intervalMs = Number(values.interval);
if (!Number.isInteger(intervalMs) || intervalMs < 100) {
  process.stderr.write("--interval must be a whole number of milliseconds, at least 100\n");
  process.exit(2);
}

const running = await startFleet({ brokerUrl: fleet.brokerUrl, devices: fleet.devices, intervalMs });
const stop = async () => {
  await running.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
