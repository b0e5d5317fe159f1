import type { Audience } from "../catalogue/types.ts";

/**
 * Whose view of the register catalogue an account gets: back office (user type 0, level 1),
 * installer and channel staff (user type 1, level 2), end users (user type 2, consumer).
 */
export function audienceOfUserType(userType: number): Audience {
  return userType === 0 ? "backOffice" : userType === 1 ? "installer" : "consumer";
}
