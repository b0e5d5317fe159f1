import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "./session.ts";

/** Without an access token every protected route goes to /login (spec §2 navigation guard). */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}
