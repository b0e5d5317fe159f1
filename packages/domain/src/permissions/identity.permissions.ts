import type { PermissionTable } from "./system.permissions.ts";

/** The channel hierarchy (distributors, dealers, installer companies), end users and account deletion. */
export const IDENTITY_PERMISSIONS = {
  "org.view": { label: "permissions:org.view" },
  "org.edit": { label: "permissions:org.edit" },
  "enduser.view": { label: "permissions:enduser.view" },
  "enduser.edit": { label: "permissions:enduser.edit" },
  "cancel.view": { label: "permissions:cancel.view" },
  "cancel.review": { label: "permissions:cancel.review" },
  "cancel.delete": { label: "permissions:cancel.delete" },
} as const satisfies PermissionTable;
