export * from "./catalogue/index.ts";
export * from "./errors.ts";
export * from "./identity/index.ts";
export * from "./locales.ts";
export * from "./permissions/registry.ts";
export * from "./product.ts";
