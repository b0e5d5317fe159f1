export * from "./frame.ts";
export * from "./frame-builder.ts";
export * from "./frame-values.ts";
export * from "./messages.ts";
export * from "./sp-key-map.generated.ts";
export * from "./topics.ts";
export * from "./wire-map.ts";
export * from "./words.ts";
