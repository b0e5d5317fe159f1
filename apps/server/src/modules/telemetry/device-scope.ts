import type { Queryable } from "../../db/db.ts";
import { notFound } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";

export interface ScopedDevice {
  id: number;
  sn: string;
  name: string;
  tenantId: number;
  timeZone: string | null;
  phaseType: 1 | 2 | null;
  onlineStatus: 0 | 1 | 2;
  lastSeenAt: Date | null;
}

/**
 * The device `deviceId` if the caller may see it, else "not found" (never "forbidden": a device
 * outside the caller's scope does not exist for them).
 *
 * DATA SCOPE — the one place the device routes of telemetry decide what a caller may see. Until
 * identity's data-scope function (organisation subtree, installer, owner user) and the device
 * ownership columns are on main, back-office accounts see their tenant's devices and channel and
 * end-user accounts see none (never the whole tenant). When it lands, this body switches to it;
 * nothing else changes.
 */
export async function findDeviceInScope(db: Queryable, auth: AuthContext, deviceId: number): Promise<ScopedDevice> {
  const { rows } = await db.query<{
    id: number;
    sn: string;
    name: string;
    tenant_id: number;
    time_zone: string | null;
    phase_type: 1 | 2 | null;
    online_status: 0 | 1 | 2;
    last_seen_at: Date | null;
  }>(
    `SELECT id, sn, name, tenant_id, time_zone, phase_type, online_status, last_seen_at
       FROM device WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL AND $3::int = 0`,
    [deviceId, auth.tenantId, auth.userType],
  );
  const r = rows[0];
  if (!r) throw notFound("telemetry:deviceNotFound");
  return {
    id: r.id,
    sn: r.sn,
    name: r.name,
    tenantId: r.tenant_id,
    timeZone: r.time_zone,
    phaseType: r.phase_type,
    onlineStatus: r.online_status,
    lastSeenAt: r.last_seen_at,
  };
}
