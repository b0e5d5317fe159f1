import { IDENTITY_SETTINGS, isEnumValue } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

/**
 * What a device's reported settings (a page answer, an acknowledged write) tell of its identity:
 * its battery chemistry and its country code setting. Written only when they differ.
 */
export async function rememberIdentitySettings(db: Queryable, deviceId: number, values: Record<string, unknown>) {
  const pick = (keys: readonly string[], valid: (v: number) => boolean) => {
    for (const key of keys) {
      const v = values[key];
      if (typeof v === "number" && Number.isInteger(v) && valid(v)) return v;
    }
    return null;
  };
  const chemistry = pick(IDENTITY_SETTINGS.batteryChemistry, (v) => isEnumValue("batteryChemistry", v));
  const country = pick(IDENTITY_SETTINGS.countryCode, (v) => isEnumValue("countryCodeFilter", v));
  if (chemistry === null && country === null) return;
  await db.query(
    `UPDATE device SET battery_chemistry = coalesce($2, battery_chemistry), reported_country_code = coalesce($3, reported_country_code)
      WHERE id = $1
        AND (battery_chemistry IS DISTINCT FROM coalesce($2, battery_chemistry)
             OR reported_country_code IS DISTINCT FROM coalesce($3, reported_country_code))`,
    [deviceId, chemistry, country],
  );
}
