export * from "./catalogue/index.ts";
export * from "./errors.ts";
export * from "./identity/index.ts";
export * from "./locales.ts";
export * from "./permissions/registry.ts";
export * from "./product.ts";
export * from "./telemetry/key-quantities.ts";
export * from "./telemetry/setting-rules.ts";
