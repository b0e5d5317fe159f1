export * from "./generator-rules.ts";
export * from "./mode-rules.ts";
export * from "./rule-problem.ts";
export * from "./schedule-rules.ts";
export * from "./setting-value-rules.ts";
export * from "./tariff-rules.ts";
export * from "./time-periods.ts";
export * from "./visibility.ts";
