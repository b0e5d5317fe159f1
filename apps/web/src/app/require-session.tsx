import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "./session.ts";

/**
 * Without an access token every protected route goes to /login (spec §2 navigation guard); until
 * the first password change is done, every route goes to the personal information page.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (session.sfFirst && location.pathname !== "/info/index") return <Navigate to="/info/index" replace />;
  return <>{children}</>;
}
