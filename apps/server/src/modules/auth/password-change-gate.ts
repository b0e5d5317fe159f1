import { API, type RouteContract } from "@ess/contracts";

/**
 * While an account must change its password (first sign-in with a generated password, or after
 * an administrator reset it), the server answers 403 to everything but what the console needs to
 * show the change form and the user's menu, the change itself and signing out.
 */
const ALLOWED = new Set<RouteContract>([
  API.auth.userInfo,
  API.auth.logout,
  API.auth.passwordEdit,
  API.menu.menus,
  API.errorLog.upload,
]);

export function allowedBeforePasswordChange(contract: RouteContract): boolean {
  return ALLOWED.has(contract);
}
