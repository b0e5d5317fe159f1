import type { PermissionTable } from "./system.permissions.ts";

/** Faults and alarms: the fault catalogue and alarm control (tenant configuration), device alarms. */
export const FAULT_PERMISSIONS = {
  "fault.view": { label: "permissions:fault.view" },
  "fault.edit": { label: "permissions:fault.edit" },
  "alarm.view": { label: "permissions:alarm.view" },
  "alarm.hide": { label: "permissions:alarm.hide" },
} as const satisfies PermissionTable;
