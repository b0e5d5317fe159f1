import type { PermissionTable } from "./system.permissions.ts";

/** The IEEE device management centre (spec §2): grid sites, their exchanged documents and commands. */
export const GRID_PERMISSIONS = {
  "grid.view": { label: "permissions:grid.view" },
  /** A device's NMI and grid company (Australian devices; recorded in the operation log). */
  "grid.edit": { label: "permissions:grid.edit" },
  /** Received and sent documents and command records as workbooks (after a confirmation, spec §8). */
  "grid.export": { label: "permissions:grid.export" },
} as const satisfies PermissionTable;
