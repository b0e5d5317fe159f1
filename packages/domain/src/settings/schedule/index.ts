export * from "./layout.ts";
export * from "./mapping.ts";
export * from "./model.ts";
export * from "./rules.ts";
