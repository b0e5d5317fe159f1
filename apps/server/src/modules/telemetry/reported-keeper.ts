import { FIRMWARE_PARTS, type FirmwarePart, type ReportedIdentity } from "@ess/domain";
import type { Tx } from "../../db/db.ts";

export type ReportedVersions = Partial<Record<FirmwarePart, string>>;

/** What the newest reading of a device in a batch says of the device itself. */
export interface ReportedRow {
  deviceId: number;
  /** Device time of the reading. */
  ts: number;
  versions: ReportedVersions;
  identity: ReportedIdentity;
}

const changedFrom = (column: string, value: string) => `d.${column} IS DISTINCT FROM coalesce(${value}, d.${column})`;
const IDENTITY = [
  ["reported_model", "x.model"],
  ["reported_rated_power", "x.rated_power"],
  ["reported_country_code", "x.country_code"],
] as const;

// A value a reading does not carry (or carries invalid) keeps the one reported before. A reading
// dated before the one that last changed the record changes nothing: a device's clock is a claim,
// but a reading it dates earlier than one it already sent is the older of the two.
const UPDATE_SQL = `
  UPDATE device d
     SET ${FIRMWARE_PARTS.map((p) => `${p}_version = coalesce(x.${p}, d.${p}_version)`).join(", ")},
         ${IDENTITY.map(([c, v]) => `${c} = coalesce(${v}, d.${c})`).join(", ")},
         identity_reported_at = to_timestamp(x.ts_ms / 1000.0)
    FROM unnest($1::int8[], $2::float8[], $3::text[], $4::float4[], $5::int2[],
                ${FIRMWARE_PARTS.map((_, i) => `$${i + 6}::text[]`).join(", ")})
         AS x(id, ts_ms, model, rated_power, country_code, ${FIRMWARE_PARTS.join(", ")})
   WHERE d.id = x.id
     AND (d.identity_reported_at IS NULL OR d.identity_reported_at <= to_timestamp(x.ts_ms / 1000.0))
     AND (${[...FIRMWARE_PARTS.map((p) => changedFrom(`${p}_version`, `x.${p}`)), ...IDENTITY.map(([c, v]) => changedFrom(c, v))].join(" OR ")})`;

const keyOf = (r: ReportedRow) =>
  [
    ...FIRMWARE_PARTS.map((p) => r.versions[p] ?? ""),
    r.identity.model ?? "",
    r.identity.ratedPower ?? "",
    r.identity.countryCode ?? "",
  ].join("|");
const reportsAnything = (r: ReportedRow) =>
  Object.keys(r.versions).length > 0 ||
  r.identity.model !== null ||
  r.identity.ratedPower !== null ||
  r.identity.countryCode !== null;

/**
 * Keeps what the device records say of the devices as the devices report it in their readings:
 * firmware versions (list columns, details header, firmware filter) and identity — model, rated
 * power, country code (list columns and filters, details header). Each device's values are written
 * in the batch's transaction, in one set-based statement, only when they differ from the ones this
 * process last wrote, so a fleet reporting every few seconds costs a write per change, not per
 * reading. What was written is this process's hint; the statement itself compares with the row.
 */
export function createReportedKeeper() {
  const written = new Map<number, string>();
  /** Per device: the identity decoded last, and a fingerprint of the words it came from. */
  const decoded = new Map<number, { words: number; identity: ReportedIdentity }>();
  return {
    /**
     * A reading's identity: decoded (`decode`) only when its words (`words`, a fingerprint) differ
     * from the ones of the device's reading decoded last; else that reading's identity again. A
     * device reports the same identity reading after reading, so this costs a fingerprint per frame.
     */
    identityOf(deviceId: number, words: number, decode: () => ReportedIdentity): ReportedIdentity {
      const last = decoded.get(deviceId);
      if (last && last.words === words) return last.identity;
      const identity = decode();
      decoded.set(deviceId, { words, identity });
      return identity;
    },
    /** The devices (newest reading each) whose report differs from what was last written. */
    changed(newest: readonly ReportedRow[]): ReportedRow[] {
      return newest.filter((n) => reportsAnything(n) && written.get(n.deviceId) !== keyOf(n));
    },
    /** Writes them in the batch's transaction, in device order; call `remember` once it committed. */
    async write(tx: Tx, rows: readonly ReportedRow[]) {
      if (rows.length === 0) return;
      const sorted = [...rows].sort((a, b) => a.deviceId - b.deviceId);
      // Locked in id order first, as presence locks them: the UPDATE's join plan, not its input's
      // order, decides the order in which it would lock the rows, and two orders deadlock.
      await tx.query("SELECT 1 FROM device WHERE id = ANY($1::int8[]) ORDER BY id FOR NO KEY UPDATE", [
        sorted.map((r) => r.deviceId),
      ]);
      await tx.query(UPDATE_SQL, [
        sorted.map((r) => r.deviceId),
        sorted.map((r) => r.ts),
        sorted.map((r) => r.identity.model),
        sorted.map((r) => r.identity.ratedPower),
        sorted.map((r) => r.identity.countryCode),
        ...FIRMWARE_PARTS.map((p) => sorted.map((r) => r.versions[p] ?? null)),
      ]);
    },
    remember(rows: readonly ReportedRow[]) {
      for (const r of rows) written.set(r.deviceId, keyOf(r));
    },
  };
}
