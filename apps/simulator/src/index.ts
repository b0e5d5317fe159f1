export * from "./device-brain.ts";
export * from "./fleet.ts";
export * from "./fleet-spec.ts";
export * from "./plant.ts";
export * from "./sites.ts";
export * from "./virtual-device.ts";
