import { PRODUCT } from "@ess/domain/product.ts";
import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { versionCheck } from "./services/version-runtime.ts";
import { useSession } from "./session.ts";
import { useLock } from "./state/lock.ts";

/** Routes that need no sign-in (spec §2). */
const PUBLIC = ["/login", "/lock", "/404", "/authredirect"];
export const isPublicPath = (path: string) => PUBLIC.some((p) => path === p || path.startsWith(`${p}/`));

/**
 * The navigation guard (spec §2): without an access token only public routes open, the rest go
 * to /login; with one, a locked console goes to /lock and /login goes to /; until the first
 * password change is done (sfFirst), every console route goes to the personal information page.
 * Every navigation also checks for a new version.
 */
export function Guard() {
  const session = useSession();
  const lock = useLock();
  const { pathname, search } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (a new pathname) triggers a check
  useEffect(() => {
    void versionCheck.check();
  }, [pathname]);

  if (!session?.access_token) {
    return isPublicPath(pathname) ? <Outlet /> : <Navigate to="/login" replace state={{ from: `${pathname}${search}` }} />;
  }
  if (lock.locked && !pathname.startsWith("/lock")) return <Navigate to="/lock" replace />;
  if (pathname === "/login" && session.userInfo) return <Navigate to="/" replace />;
  if (session.sfFirst && !isPublicPath(pathname) && pathname !== PRODUCT.infoPath)
    return <Navigate to={PRODUCT.infoPath} replace />;
  return <Outlet />;
}
