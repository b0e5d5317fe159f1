import type { Queryable } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";

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

/** A device row as `SCOPED_DEVICE_COLUMNS` selects it (alias `d`). */
export interface ScopedDeviceRow {
  id: number;
  sn: string;
  name: string;
  tenant_id: number;
  time_zone: string | null;
  phase_type: 1 | 2 | null;
  online_status: 0 | 1 | 2;
  last_seen_at: Date | null;
}
export const SCOPED_DEVICE_COLUMNS =
  "d.id, d.sn, d.name, d.tenant_id, d.time_zone, d.phase_type, d.online_status, d.last_seen_at";

export const scopedDevice = (r: ScopedDeviceRow): ScopedDevice => ({
  id: r.id,
  sn: r.sn,
  name: r.name,
  tenantId: r.tenant_id,
  timeZone: r.time_zone,
  phaseType: r.phase_type,
  onlineStatus: r.online_status,
  lastSeenAt: r.last_seen_at,
});

/**
 * The device `deviceId` if the caller may see it, else "not found" (never "forbidden": a device
 * outside the caller's scope does not exist for them). The one place the device routes and the
 * live destinations of telemetry ask the data scope (`modules/scope/data-scope.ts`): back office
 * its tenant, channel staff their organisation's subtree (seller or installer), end users their own.
 */
export async function findDeviceInScope(db: Queryable, auth: AuthContext, deviceId: number): Promise<ScopedDevice> {
  const { rows } = await run<ScopedDeviceRow>(
    db,
    sql`SELECT ${sql.raw(SCOPED_DEVICE_COLUMNS)}
          FROM device d WHERE d.id = ${deviceId} AND d.deleted_at IS NULL AND ${dataScope(auth).devices("d")}`,
  );
  const r = rows[0];
  if (!r) throw notFound("telemetry:deviceNotFound");
  return scopedDevice(r);
}
