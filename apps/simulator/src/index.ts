export * from "./console-client.ts";
export * from "./demo-fleet.ts";
export * from "./demo-start.ts";
export * from "./device-brain.ts";
export * from "./fleet.ts";
export * from "./fleet-spec.ts";
// A site's weather on a day, for tests that need the sun (each day's weather is drawn from the date).
export { localTime } from "./local-time.ts";
export * from "./plant.ts";
export * from "./simulator-process.ts";
export * from "./sites.ts";
export * from "./slide-solver.ts";
export { cloudCover } from "./solar.ts";
export * from "./virtual-device.ts";
