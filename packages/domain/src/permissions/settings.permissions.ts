import type { PermissionTable } from "./system.permissions.ts";

/** Remote settings and commands (one device or many) and electricity prices. */
export const SETTINGS_PERMISSIONS = {
  "device.param.write": { label: "permissions:device.param.write" },
  "device.param.bulk": { label: "permissions:device.param.bulk" },
  "device.command.send": { label: "permissions:device.command.send" },
  "device.param.visibility": { label: "permissions:device.param.visibility" },
  "mode.view": { label: "permissions:mode.view" },
  "mode.edit": { label: "permissions:mode.edit" },
  "tariff.view": { label: "permissions:tariff.view" },
  "tariff.edit": { label: "permissions:tariff.edit" },
} as const satisfies PermissionTable;
