/**
 * The channel hierarchy (DESIGN §3): tenant → manufacturer back office → distributor (level 1)
 * → dealer (level 2) → installer company → end user (master user, with sub-users) → device.
 *
 * Every organisation stores its materialised path (`/1/7/12/`, ids from the root), so "this
 * organisation and everything below it" is one prefix match. What a caller may see follows from
 * its account alone:
 * - back office accounts (user type 0): the whole tenant;
 * - channel accounts (user type 1, distributor, dealer or installer staff): their organisation's
 *   subtree — organisations, their staff, the end users they serve and those users' devices;
 *   a dealer also sees the installer companies of its distributor marked "show under dealers";
 * - end users (user type 2): a master user sees itself, its sub-users and its devices; a sub-user
 *   itself and its master's devices.
 * Roles grant permissions (what a caller may do); the scope decides which records it may do it to.
 */
export const ORG_KINDS = ["manufacturer", "distributor", "dealer", "installer"] as const;
export type OrgKind = (typeof ORG_KINDS)[number];

/** Organisations managed through the back office (the manufacturer is the root, made at start). */
export const CHANNEL_ORG_KINDS = ["distributor", "dealer", "installer"] as const;
export type ChannelOrgKind = (typeof CHANNEL_ORG_KINDS)[number];

/** The kinds an organisation may sit under. */
export const ORG_PARENT_KINDS: Readonly<Record<OrgKind, readonly OrgKind[]>> = {
  manufacturer: [],
  distributor: ["manufacturer"],
  dealer: ["distributor"],
  installer: ["manufacturer", "distributor", "dealer"],
};

/** Level in the channel: 1 distributor (primary), 2 dealer (secondary). */
export const ORG_LEVEL: Readonly<Record<OrgKind, number>> = { manufacturer: 0, distributor: 1, dealer: 2, installer: 3 };

export const USER_STATUS = { normal: 0, locked: 1 } as const;

/** Review states of an account deletion request (spec §4 cancellation review). */
export const CANCELLATION_STATUS = { pending: 0, approved: 1, refused: 2 } as const;
/** Reasons for an account deletion request (enum logoutTypeFilter). */
export const CANCELLATION_TYPES = [0, 1, 2] as const;
