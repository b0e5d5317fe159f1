import type { PermissionTable } from "./system.permissions.ts";

/** Live pushes to users' consoles. */
export const REALTIME_PERMISSIONS = {
  "realtime.reminder.send": { label: "permissions:realtime.reminder.send" },
} as const satisfies PermissionTable;
