export * from "./fleet.ts";
export * from "./virtual-device.ts";
