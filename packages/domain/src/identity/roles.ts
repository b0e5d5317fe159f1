import type { PermissionId } from "../permissions/registry.ts";
import type { ChannelOrgKind } from "./channel.ts";

/**
 * The built-in roles of spec §6, seeded into every tenant. The administrator holds every
 * permission, present and future; the others start with the sets below (administrators may change
 * them; a permission added here later is granted once to the existing role, never re-granted after
 * an administrator removed it). `userType` is the account type the role is meant for.
 * Labels: i18n `roles:<code>`.
 */
export interface DefaultRole {
  code: string;
  /** Stored name (the console shows the translated label of a built-in role). */
  name: string;
  userType: 0 | 1 | 2;
  permissions: readonly PermissionId[];
}

export const ADMIN_ROLE_CODE = "ADMIN";

// Bundles the roles below share: what any signed-in viewer of a device sees, what operating a
// device takes, and the customer and price care a channel or an owner does.
const WATCH: readonly PermissionId[] = ["device.view", "board.view", "device.telemetry.view", "alarm.view"];
const OPERATE: readonly PermissionId[] = ["device.param.read", "device.param.write", "device.command.send"];
const CUSTOMERS: readonly PermissionId[] = ["enduser.view", "enduser.edit"];
const TARIFFS: readonly PermissionId[] = ["tariff.view", "tariff.edit"];
const UPGRADES: readonly PermissionId[] = ["firmware.view", "ota.view", "ota.send"];
// Messages to the customers a channel serves, and their feedback.
const SERVICE: readonly PermissionId[] = [
  "content.message.view",
  "content.message.edit",
  "feedback.view",
  "feedback.handle",
  "feedback.export",
];

export const DEFAULT_ROLES: readonly DefaultRole[] = [
  { code: ADMIN_ROLE_CODE, name: "Administrator", userType: 0, permissions: [] },
  {
    code: "ENGINEER",
    name: "Engineer",
    userType: 0,
    permissions: [
      ...WATCH,
      ...OPERATE,
      ...UPGRADES,
      "device.export",
      "device.rename",
      "org.view",
      "enduser.view",
      "sys.user.view",
      "sys.log.view",
      "fault.view",
      "mode.view",
      "device.param.bulk",
    ],
  },
  { code: "AGENT", name: "Agent", userType: 0, permissions: [...WATCH, "org.view", "enduser.view"] },
  {
    code: "DISTRIBUTOR",
    name: "Distributor",
    userType: 1,
    permissions: [
      ...WATCH,
      ...OPERATE,
      ...CUSTOMERS,
      ...TARIFFS,
      ...UPGRADES,
      ...SERVICE,
      "device.edit",
      "device.delete",
      "device.import",
      "device.export",
      "device.bind",
      "device.rename",
      "org.view",
      "org.edit",
      "sys.user.view",
      "sys.user.edit",
      "referral.view",
      "referral.export",
      "grid.view",
      "grid.edit",
      "grid.export",
    ],
  },
  {
    code: "DEALER",
    name: "Dealer",
    userType: 1,
    permissions: [
      ...WATCH,
      ...OPERATE,
      ...CUSTOMERS,
      ...TARIFFS,
      ...UPGRADES,
      ...SERVICE,
      "device.edit",
      "device.import",
      "device.export",
      "device.bind",
      "device.rename",
      "org.view",
      "org.edit",
      "sys.user.view",
      "referral.view",
      "referral.export",
      "grid.view",
      "grid.edit",
      "grid.export",
    ],
  },
  {
    code: "INSTALLER",
    name: "Installer",
    userType: 1,
    permissions: [
      ...WATCH,
      ...OPERATE,
      ...CUSTOMERS,
      ...TARIFFS,
      "device.export",
      "device.bind",
      "device.rename",
      "org.view",
      "ota.view",
    ],
  },
  {
    code: "END_USER",
    name: "End user (master user)",
    userType: 2,
    permissions: [...WATCH, ...OPERATE, ...CUSTOMERS, ...TARIFFS, "device.rename", "ota.view"],
  },
  { code: "SUB_USER", name: "End user (sub-user)", userType: 2, permissions: WATCH },
];

/** The role given to the enterprise account created with an organisation. */
export const ORG_ACCOUNT_ROLE: Readonly<Record<ChannelOrgKind, string>> = {
  distributor: "DISTRIBUTOR",
  dealer: "DEALER",
  installer: "INSTALLER",
};

export const END_USER_ROLE = { master: "END_USER", sub: "SUB_USER" } as const;
