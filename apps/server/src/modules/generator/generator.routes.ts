import { API, type GeneratorSettings } from "@ess/contracts";
import { checkGenerator } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { business, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { findDeviceInScope, type ScopedDevice } from "../telemetry/device-scope.ts";

/** System run states of spec §4 in which the inverter is connected to the grid. */
const GRID_CONNECTED_STATES = new Set([2, 5, 6, 7]);

/** Whether the device's newest reading says it runs on the grid (unknown counts as not). */
async function gridConnected(db: Queryable, deviceId: number): Promise<boolean> {
  const { rows } = await db.query<{ s: number | null }>(
    `SELECT h.system_state AS s FROM device_latest l
       JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts WHERE l.device_id = $1`,
    [deviceId],
  );
  const state = rows[0]?.s;
  return state !== null && state !== undefined && GRID_CONNECTED_STATES.has(state);
}

interface Row {
  switched_on: boolean;
  rated_power_kw: number;
  available_pct: number;
  control_mode: "manual" | "soc";
  soc_lower: number | null;
  soc_upper: number | null;
  slots: { start: string; end: string }[];
  output_mode: number;
  charge_power_kw: number;
  updated_at: Date;
}

const toSettings = (r: Row): GeneratorSettings => ({
  on: r.switched_on,
  ratedPowerKw: r.rated_power_kw,
  availablePct: r.available_pct,
  controlMode: r.control_mode,
  socLower: r.soc_lower,
  socUpper: r.soc_upper,
  slots: r.slots,
  outputMode: r.output_mode,
  chargePowerKw: r.charge_power_kw,
});

/** A device under the VPP operator's control cannot be operated by its own user (spec §6). */
async function refuseVpp(db: Db, device: ScopedDevice, auth: AuthContext) {
  if (auth.userType !== 2) return;
  const { rows } = await db.query<{ vpp: boolean }>("SELECT vpp_controlled AS vpp FROM device WHERE id = $1", [device.id]);
  if (rows[0]?.vpp) throw business("settings:vppControlled");
}

/** The generator page: settings per device, checked by the shared generator rules of spec §5. */
export function registerGeneratorRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  bindRoute(app, API.generator.info, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const { rows } = await db.query<Row>("SELECT * FROM device_generator WHERE device_id = $1", [device.id]);
    const row = rows[0];
    return {
      settings: row ? toSettings(row) : null,
      gridConnected: await gridConnected(db, device.id),
      updatedAt: row?.updated_at.getTime() ?? null,
    };
  });

  bindRoute(app, API.generator.operate, async ({ input, auth }) => {
    const { deviceId, ...settings } = input.body;
    const device = await findDeviceInScope(db, auth, deviceId);
    await refuseVpp(db, device, auth);
    const problems = checkGenerator(settings, { gridConnected: await gridConnected(db, device.id) });
    if (problems.length > 0) throw new ValidationError(problems);
    const soc = settings.controlMode === "soc";
    const { rows } = await db.query<Row>(
      `INSERT INTO device_generator (device_id, switched_on, rated_power_kw, available_pct, control_mode, soc_lower, soc_upper,
              slots, output_mode, charge_power_kw, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (device_id) DO UPDATE SET switched_on = excluded.switched_on, rated_power_kw = excluded.rated_power_kw,
              available_pct = excluded.available_pct, control_mode = excluded.control_mode, soc_lower = excluded.soc_lower,
              soc_upper = excluded.soc_upper, slots = excluded.slots, output_mode = excluded.output_mode,
              charge_power_kw = excluded.charge_power_kw, updated_by = excluded.updated_by, updated_at = now()
       RETURNING *`,
      [
        device.id,
        settings.on,
        settings.ratedPowerKw,
        settings.availablePct,
        settings.controlMode,
        soc ? settings.socLower : null,
        soc ? settings.socUpper : null,
        JSON.stringify(settings.slots),
        settings.outputMode,
        settings.chargePowerKw,
        auth.userId,
      ],
    );
    return toSettings(rows[0] as Row);
  });

  bindRoute(app, API.generator.del, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    await refuseVpp(db, device, auth);
    await db.query("DELETE FROM device_generator WHERE device_id = $1", [device.id]);
    return null;
  });
}
