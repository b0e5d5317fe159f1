/** Product facts shown in the console footer and version panel (spec §1, §9). */
export const PRODUCT = {
  name: "ESS Console",
  version: "3.11.0",
  copyright: "2018-2025",
  defaultTenantId: 1,
  homePath: "/wel/index",
  /** Personal information and change password; the only page until a forced password change is done. */
  infoPath: "/info/index",
} as const;

/** Password policy (spec §5; the spec prints two upper bounds, the issue settles on 20). */
export const PASSWORD_RULE = { min: 6, max: 20, pattern: /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]+$/ } as const;

export function isAcceptablePassword(password: string): boolean {
  return password.length >= PASSWORD_RULE.min && password.length <= PASSWORD_RULE.max && PASSWORD_RULE.pattern.test(password);
}

/** User types of spec §3 User. */
export const USER_TYPES = { backOffice: 0, installer: 1, user: 2 } as const;
export type UserType = (typeof USER_TYPES)[keyof typeof USER_TYPES];
