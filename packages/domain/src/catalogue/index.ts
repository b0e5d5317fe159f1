export * from "./catalogue.ts";
export * from "./enums.ts";
export * from "./settings-pages.ts";
export * from "./types.ts";
