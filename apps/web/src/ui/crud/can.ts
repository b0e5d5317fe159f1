import type { PermissionId } from "@ess/domain";
import { useSession } from "../../app/session.ts";

/** Whether the signed-in user holds a permission (buttons hide what the server would refuse). */
export function useCan(): (permission: PermissionId | undefined) => boolean {
  const permissions = useSession()?.permissions ?? {};
  return (permission) => !permission || permissions[permission] === true;
}
