/** Back-office system administration: users, roles, menus, operation log, system health. */
export const SYSTEM_PERMISSIONS = {
  "sys.user.view": { label: "permissions:sys.user.view" },
  "sys.user.edit": { label: "permissions:sys.user.edit" },
  "sys.role.view": { label: "permissions:sys.role.view" },
  "sys.role.edit": { label: "permissions:sys.role.edit" },
  "sys.menu.view": { label: "permissions:sys.menu.view" },
  "sys.menu.edit": { label: "permissions:sys.menu.edit" },
  "sys.log.view": { label: "permissions:sys.log.view" },
  "sys.log.delete": { label: "permissions:sys.log.delete" },
  /** Reminders about the console itself (device data no longer arriving from the broker). */
  "sys.health.view": { label: "permissions:sys.health.view" },
} as const satisfies PermissionTable;

export type PermissionTable = Record<string, { label: string }>;
