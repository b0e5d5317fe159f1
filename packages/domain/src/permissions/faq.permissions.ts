import type { PermissionTable } from "./system.permissions.ts";

/** The FAQ (classifications and problems) and the address tree: tenant-wide content for the app. */
export const FAQ_PERMISSIONS = {
  "content.faq.view": { label: "permissions:content.faq.view" },
  "content.faq.edit": { label: "permissions:content.faq.edit" },
  "content.region.view": { label: "permissions:content.region.view" },
  "content.region.edit": { label: "permissions:content.region.edit" },
} as const satisfies PermissionTable;
