// Grid identifiers usable in the browser too. The ones that need SHA-256 (certificate LFDI, site
// LFDIs, derived mRIDs) live in ./hashed-identity.ts, which only the server imports.
export * from "./command-mode.ts";
export * from "./control-mappings.ts";
export * from "./control-schedule.ts";
export * from "./control-summary.ts";
export * from "./control-validity.ts";
export * from "./identity.ts";
export * from "./nmi.ts";
export * from "./site-states.ts";
