import { getRegister, isRunning, requiresStandby } from "@ess/domain";
import type { Db, Queryable } from "../../db/db.ts";
import { AppError, business } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { settingsHeldByGrid } from "../grid/control-applier.repository.ts";
import type { ScopedDevice } from "../telemetry/device-scope.ts";
import type { DeviceWriter } from "./device-writer.ts";
import { getWrite, insertWrites, type WriteRow } from "./write-records.repository.ts";

/** The system run state of the device's newest reading (null before its first reading). */
export async function latestSystemState(db: Queryable, deviceId: number): Promise<number | null> {
  const { rows } = await db.query<{ s: number | null }>(
    `SELECT h.system_state AS s FROM device_latest l
       JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts WHERE l.device_id = $1`,
    [deviceId],
  );
  return rows[0]?.s ?? null;
}

/** Of `deviceIds`, those whose newest reading says they run (for standby-only settings sent in bulk). */
export async function runningAmong(db: Queryable, deviceIds: readonly number[], keys: readonly string[]): Promise<Set<number>> {
  if (
    !keys.some((k) => {
      const r = getRegister(k);
      return r !== undefined && requiresStandby(r);
    })
  )
    return new Set();
  const { rows } = await db.query<{ id: number; s: number | null }>(
    `SELECT l.device_id AS id, h.system_state AS s FROM device_latest l
       JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts WHERE l.device_id = ANY($1::bigint[])`,
    [deviceIds],
  );
  return new Set(rows.filter((r) => isRunning(r.s)).map((r) => r.id));
}

/**
 * A device under the VPP operator's control cannot be operated by its own user (spec §6). Under a
 * grid control the console applies (`keys`: the settings a write changes), only the settings the
 * control holds are the utility's: a user's write of any other setting contradicts nothing and
 * goes through. Commands, and a device put under an operator's control otherwise, stay refused.
 */
export async function refuseVppControlled(db: Queryable, device: ScopedDevice, auth: AuthContext, keys?: readonly string[]) {
  if (auth.userType !== 2) return;
  const { rows } = await db.query<{ vpp: boolean }>("SELECT vpp_controlled AS vpp FROM device WHERE id = $1", [device.id]);
  if (!rows[0]?.vpp) return;
  const held = keys ? await settingsHeldByGrid(db, device.id) : null;
  if (held && !keys?.some((k) => held.has(k))) return;
  throw business("settings:vppControlled");
}

/**
 * Settings that apply only in standby or shut down (spec §4) are refused before anything is sent
 * when the device's newest reading says it is running — naming the setting and the state. An
 * online device whose reading is older than a change of state still refuses on its own
 * (`needsStandby`), so the record ends refused either way.
 */
export async function refuseWhileRunning(
  db: Queryable,
  device: ScopedDevice,
  keys: readonly string[],
  t: (key: string) => string,
) {
  if (device.onlineStatus === 0) return;
  const standbyOnly = keys.map((k) => getRegister(k)).find((r) => r && requiresStandby(r));
  if (!standbyOnly) return;
  const state = await latestSystemState(db, device.id);
  if (isRunning(state)) {
    throw business("deviceWrites:runningRefused", {
      setting: t(standbyOnly.labelKey),
      state: t(`enums:systemStateFilter.${state}`),
    });
  }
}

type NewDeviceWrite = { changes: WriteRow["changes"]; command: number | null; expiresAt: Date | null };

/** Records one setting or command for a device, queued (`db` may be the caller's transaction). */
export async function recordWrite(db: Queryable, device: ScopedDevice, auth: AuthContext, write: NewDeviceWrite) {
  const [row] = await insertWrites(db, [
    {
      tenantId: device.tenantId,
      deviceId: device.id,
      bulkId: null,
      kind: write.command === null ? "setting" : "command",
      changes: write.changes,
      command: write.command,
      createdBy: auth.userId,
      createdByName: auth.name || auth.username,
      expiresAt: write.expiresAt,
    },
  ]);
  if (!row) throw new AppError("internal");
  return row;
}

/**
 * Sends a recorded write when the device is online; answers the record as it ended, or still
 * queued for an offline device (the writer sends it on the device's return).
 */
export async function sendRecorded(
  deps: { db: Db; writer: DeviceWriter },
  device: Pick<ScopedDevice, "sn" | "onlineStatus">,
  row: WriteRow,
) {
  deps.writer.publish(row);
  if (device.onlineStatus === 0) return row;
  return (await deps.writer.dispatch(row.id, device.sn)) ?? (await getWrite(deps.db, row.id)) ?? row;
}

export async function recordAndSend(
  deps: { db: Db; writer: DeviceWriter },
  device: ScopedDevice,
  auth: AuthContext,
  write: NewDeviceWrite,
): Promise<WriteRow> {
  return sendRecorded(deps, device, await recordWrite(deps.db, device, auth, write));
}
