import { CONTENT_PERMISSIONS } from "./content.permissions.ts";
import { DEVICE_PERMISSIONS } from "./device.permissions.ts";
import { FAQ_PERMISSIONS } from "./faq.permissions.ts";
import { FAULT_PERMISSIONS } from "./faults.permissions.ts";
import { GRID_PERMISSIONS } from "./grid.permissions.ts";
import { IDENTITY_PERMISSIONS } from "./identity.permissions.ts";
import { OTA_PERMISSIONS } from "./ota.permissions.ts";
import { REALTIME_PERMISSIONS } from "./realtime.permissions.ts";
import { REFERRAL_PERMISSIONS } from "./referral.permissions.ts";
import { SETTINGS_PERMISSIONS } from "./settings.permissions.ts";
import { SYSTEM_PERMISSIONS } from "./system.permissions.ts";
import { TELEMETRY_PERMISSIONS } from "./telemetry.permissions.ts";

/**
 * The permission registry: every permission is a `resource.action` id with an i18n label key.
 * Each feature keeps its table in `<feature>.permissions.ts` and adds it here; routes declare
 * one of these (or that they are public / for any signed-in user) and roles grant them.
 */
export const PERMISSIONS = {
  ...SYSTEM_PERMISSIONS,
  ...REALTIME_PERMISSIONS,
  ...IDENTITY_PERMISSIONS,
  ...TELEMETRY_PERMISSIONS,
  ...SETTINGS_PERMISSIONS,
  ...FAULT_PERMISSIONS,
  ...DEVICE_PERMISSIONS,
  ...OTA_PERMISSIONS,
  ...REFERRAL_PERMISSIONS,
  ...GRID_PERMISSIONS,
  ...FAQ_PERMISSIONS,
  ...CONTENT_PERMISSIONS,
} as const;

export type PermissionId = keyof typeof PERMISSIONS;
export const PERMISSION_IDS = Object.keys(PERMISSIONS) as PermissionId[];

export function isPermissionId(value: string): value is PermissionId {
  return Object.hasOwn(PERMISSIONS, value);
}

/**
 * What a route requires of its caller: nothing (`public`), any signed-in user (`signedIn`), or a
 * permission from the registry.
 */
export type RouteAccess = { public: true } | { signedIn: true } | { permission: PermissionId };
