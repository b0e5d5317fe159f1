import type { PermissionTable } from "./system.permissions.ts";

/** Device management: the list and details, changes, import and export, binding, renaming, the data board. */
export const DEVICE_PERMISSIONS = {
  "device.view": { label: "permissions:device.view" },
  "device.edit": { label: "permissions:device.edit" },
  "device.delete": { label: "permissions:device.delete" },
  "device.import": { label: "permissions:device.import" },
  "device.export": { label: "permissions:device.export" },
  "device.bind": { label: "permissions:device.bind" },
  "device.rename": { label: "permissions:device.rename" },
  "board.view": { label: "permissions:board.view" },
} as const satisfies PermissionTable;
