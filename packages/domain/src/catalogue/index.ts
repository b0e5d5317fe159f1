export * from "./catalogue.ts";
export * from "./enums.ts";
export * from "./types.ts";
