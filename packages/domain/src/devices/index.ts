export * from "./energy.ts";
export * from "./firmware.ts";
export * from "./identity.ts";
export * from "./models.ts";
