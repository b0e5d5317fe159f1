// The IEEE 2030.5 / CSIP-AUS utility test server: start it in-process with startUtilitySim and
// drive it through its control object (or its JSON control port, see control-http.ts).
export * from "./clock.ts";
export * from "./control.ts";
export * from "./control-http.ts";
export * from "./pki.ts";
export * from "./request-log.ts";
export * from "./scenario-engine.ts";
export * from "./server.ts";
export * from "./state.ts";
