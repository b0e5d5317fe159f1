// Protocol pieces of IEEE 2030.5 / CSIP-AUS shared by the console's utility client and the utility
// test server. Certificates (node:crypto, @peculiar/x509) are imported from "@ess/sep2/certificates.ts".
export * from "./decode-cache.ts";
export * from "./paging.ts";
export * from "./resources/common.ts";
export * from "./resources/der.ts";
export * from "./resources/end-device.ts";
export * from "./resources/metering.ts";
export * from "./xml.ts";
