import type { PermissionTable } from "./system.permissions.ts";

/**
 * Messages to the app and the console, end users' feedback (spec §2 messages, opinions), and
 * published content (news, data-center documents, banners and guide pages) with the media
 * uploaded for it.
 */
export const CONTENT_PERMISSIONS = {
  "content.message.view": { label: "permissions:content.message.view" },
  "content.message.edit": { label: "permissions:content.message.edit" },
  "feedback.view": { label: "permissions:feedback.view" },
  "feedback.handle": { label: "permissions:feedback.handle" },
  "feedback.export": { label: "permissions:feedback.export" },
  "content.article.view": { label: "permissions:content.article.view" },
  "content.article.edit": { label: "permissions:content.article.edit" },
  "content.banner.view": { label: "permissions:content.banner.view" },
  "content.banner.edit": { label: "permissions:content.banner.edit" },
  "media.upload": { label: "permissions:media.upload" },
} as const satisfies PermissionTable;
