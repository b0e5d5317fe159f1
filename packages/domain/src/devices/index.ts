export * from "./energy.ts";
export * from "./models.ts";
