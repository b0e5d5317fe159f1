import { FIRMWARE_PARTS, type FirmwarePart } from "@ess/domain";
import type { Tx } from "../../db/db.ts";

export type ReportedVersions = Partial<Record<FirmwarePart, string>>;

const UPDATE_SQL = `
  UPDATE device d SET ${FIRMWARE_PARTS.map((p) => `${p}_version = coalesce(x.${p}, d.${p}_version)`).join(", ")}
    FROM unnest($1::int8[], ${FIRMWARE_PARTS.map((_, i) => `$${i + 2}::text[]`).join(", ")}) AS x(id, ${FIRMWARE_PARTS.join(", ")})
   WHERE d.id = x.id
     AND (${FIRMWARE_PARTS.map((p) => `d.${p}_version IS DISTINCT FROM coalesce(x.${p}, d.${p}_version)`).join(" OR ")})`;

/**
 * Keeps the device records' firmware versions (list columns, details header, firmware filter) as
 * the devices report them. Each device's versions are written when they differ from the ones last
 * written, so a fleet reporting every few seconds costs a write per upgrade, not per reading.
 */
export function createFirmwareVersionKeeper() {
  const written = new Map<number, string>();
  const keyOf = (v: ReportedVersions) => FIRMWARE_PARTS.map((p) => v[p] ?? "").join("|");
  return {
    /** The devices (newest reading each) whose reported versions changed since last written. */
    changed(newest: readonly { deviceId: number; versions: ReportedVersions }[]) {
      return newest.filter((n) => Object.keys(n.versions).length > 0 && written.get(n.deviceId) !== keyOf(n.versions));
    },
    /** Writes them in the batch's transaction; call `remember` once it committed. */
    async write(tx: Tx, rows: readonly { deviceId: number; versions: ReportedVersions }[]) {
      if (rows.length === 0) return;
      const sorted = [...rows].sort((a, b) => a.deviceId - b.deviceId);
      await tx.query(UPDATE_SQL, [
        sorted.map((r) => r.deviceId),
        ...FIRMWARE_PARTS.map((p) => sorted.map((r) => r.versions[p] ?? null)),
      ]);
    },
    remember(rows: readonly { deviceId: number; versions: ReportedVersions }[]) {
      for (const r of rows) written.set(r.deviceId, keyOf(r.versions));
    },
  };
}
