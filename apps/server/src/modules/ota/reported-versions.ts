import { decodeValues, frameFromStored, unpackZeroRuns } from "@ess/contracts";
import { FIRMWARE_VERSION_REGISTERS, versionFromRegister } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

/** The firmware type whose version the devices report in every reading (MCU), and where. */
export const REPORTED_TYPE = 3;
const VERSION_REGISTERS = [FIRMWARE_VERSION_REGISTERS.three.mcu, FIRMWARE_VERSION_REGISTERS.single.mcu].filter(
  (r): r is string => r !== null,
);

/**
 * The MCU version each device shows in its newest reading (three-phase TP_0X04_1, single-phase
 * mcuSoftwareVersion; hundredths: 132 → "1.32"), for devices never upgraded through the console.
 */
export async function reportedVersions(db: Queryable, deviceIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (deviceIds.length === 0) return out;
  const { rows } = await db.query<{ device_id: number; ts: Date; seq: number; blocks: Uint8Array }>(
    `SELECT l.device_id, l.ts, l.seq, h.blocks
       FROM device_latest l JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
      WHERE l.device_id = ANY($1::bigint[])`,
    [deviceIds],
  );
  for (const r of rows) {
    const { values } = decodeValues(frameFromStored(r.ts.getTime(), r.seq, unpackZeroRuns(r.blocks)));
    const raw = VERSION_REGISTERS.map((k) => values[k]).find((v) => typeof v === "number" && v > 0);
    if (typeof raw === "number") out.set(r.device_id, versionFromRegister(raw));
  }
  return out;
}
