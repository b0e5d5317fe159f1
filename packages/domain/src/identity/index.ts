export * from "./channel.ts";
export * from "./menus.ts";
export * from "./roles.ts";
export * from "./rules.ts";
