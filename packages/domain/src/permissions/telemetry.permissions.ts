import type { PermissionTable } from "./system.permissions.ts";

/** Device data: live readings, curves, energy and the on/off-line log; asking a device for a page. */
export const TELEMETRY_PERMISSIONS = {
  "device.telemetry.view": { label: "permissions:device.telemetry.view" },
  "device.param.read": { label: "permissions:device.param.read" },
} as const satisfies PermissionTable;
