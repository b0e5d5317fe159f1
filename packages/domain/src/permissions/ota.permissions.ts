import type { PermissionTable } from "./system.permissions.ts";

/** Firmware and app versions (a tenant's catalogue) and over-the-air upgrades of devices in scope. */
export const OTA_PERMISSIONS = {
  "firmware.view": { label: "permissions:firmware.view" },
  "firmware.edit": { label: "permissions:firmware.edit" },
  "ota.view": { label: "permissions:ota.view" },
  "ota.send": { label: "permissions:ota.send" },
} as const satisfies PermissionTable;
