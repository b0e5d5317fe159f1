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

export const DEFAULT_ROLES: readonly DefaultRole[] = [
  { code: ADMIN_ROLE_CODE, name: "Administrator", userType: 0, permissions: [] },
  {
    code: "ENGINEER",
    name: "Engineer",
    userType: 0,
    permissions: [
      "device.view",
      "device.export",
      "device.rename",
      "board.view",
      "org.view",
      "enduser.view",
      "sys.user.view",
      "sys.log.view",
      "device.telemetry.view",
      "device.param.read",
      "fault.view",
      "alarm.view",
      "firmware.view",
      "ota.view",
      "ota.send",
      "device.param.write",
      "device.command.send",
    ],
  },
  {
    code: "AGENT",
    name: "Agent",
    userType: 0,
    permissions: ["device.view", "board.view", "org.view", "enduser.view", "device.telemetry.view", "alarm.view"],
  },
  {
    code: "DISTRIBUTOR",
    name: "Distributor",
    userType: 1,
    permissions: [
      "device.view",
      "device.edit",
      "device.delete",
      "device.import",
      "device.export",
      "device.bind",
      "device.rename",
      "board.view",
      "org.view",
      "org.edit",
      "enduser.view",
      "enduser.edit",
      "sys.user.view",
      "sys.user.edit",
      "device.telemetry.view",
      "device.param.read",
      "alarm.view",
      "firmware.view",
      "ota.view",
      "ota.send",
      "device.param.write",
      "device.command.send",
      "tariff.view",
      "tariff.edit",
    ],
  },
  {
    code: "DEALER",
    name: "Dealer",
    userType: 1,
    permissions: [
      "device.view",
      "device.edit",
      "device.import",
      "device.export",
      "device.bind",
      "device.rename",
      "board.view",
      "org.view",
      "org.edit",
      "enduser.view",
      "enduser.edit",
      "sys.user.view",
      "device.telemetry.view",
      "device.param.read",
      "alarm.view",
      "firmware.view",
      "ota.view",
      "ota.send",
      "device.param.write",
      "device.command.send",
      "tariff.view",
      "tariff.edit",
    ],
  },
  {
    code: "INSTALLER",
    name: "Installer",
    userType: 1,
    permissions: [
      "device.view",
      "device.export",
      "device.bind",
      "device.rename",
      "board.view",
      "org.view",
      "enduser.view",
      "enduser.edit",
      "device.telemetry.view",
      "device.param.read",
      "alarm.view",
      "ota.view",
      "device.param.write",
      "device.command.send",
      "tariff.view",
      "tariff.edit",
    ],
  },
  {
    code: "END_USER",
    name: "End user (master user)",
    userType: 2,
    permissions: [
      "device.view",
      "device.rename",
      "board.view",
      "enduser.view",
      "enduser.edit",
      "device.telemetry.view",
      "device.param.read",
      "alarm.view",
      "ota.view",
      "device.param.write",
      "device.command.send",
      "tariff.view",
      "tariff.edit",
    ],
  },
  {
    code: "SUB_USER",
    name: "End user (sub-user)",
    userType: 2,
    permissions: ["device.view", "board.view", "device.telemetry.view", "alarm.view"],
  },
];

/** The role given to the enterprise account created with an organisation. */
export const ORG_ACCOUNT_ROLE: Readonly<Record<ChannelOrgKind, string>> = {
  distributor: "DISTRIBUTOR",
  dealer: "DEALER",
  installer: "INSTALLER",
};

export const END_USER_ROLE = { master: "END_USER", sub: "SUB_USER" } as const;
