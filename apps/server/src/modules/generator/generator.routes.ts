import { API, type GeneratorSettings } from "@ess/contracts";
import { checkGenerator, generatorRegisterValues, isGridConnected } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { DeviceWriter } from "../settings/device-writer.ts";
import { latestSystemState, recordWrite, refuseVppControlled, sendRecorded } from "../settings/write-guards.ts";
import { knownSettings, toRecord } from "../settings/write-records.repository.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";

/** Whether the device's newest reading says it runs on the grid (unknown counts as not). */
const gridConnected = async (db: Db, deviceId: number) => isGridConnected(await latestSystemState(db, deviceId));

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

/**
 * The generator page: settings per device, checked by the shared generator rules of spec §5, kept
 * as the page shows them and written to the device's generator registers as one change record
 * (queued → sent → acknowledged / refused / timed out; queued while the device is offline).
 */
export function registerGeneratorRoutes(app: FastifyInstance, deps: { db: Db; writer: DeviceWriter; queueTtlMs: number }) {
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

  bindRoute(app, API.generator.operate, async ({ input, auth, request }) => {
    const { deviceId, ...settings } = input.body;
    const device = await findDeviceInScope(db, auth, deviceId);
    await refuseVppControlled(db, device, auth);
    const problems = checkGenerator(settings, { gridConnected: await gridConnected(db, device.id) });
    if (problems.length > 0) throw new ValidationError(problems);
    const soc = settings.controlMode === "soc";
    const current = await knownSettings(db, device.id);
    const values = generatorRegisterValues(device.phaseType === 1 ? "single" : "three", settings);
    const { saved, write } = await db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
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
      const write = await recordWrite(tx, device, auth, {
        changes: Object.entries(values).map(([key, value]) => ({ key, old: current[key] ?? null, new: value })),
        command: null,
        expiresAt: new Date(Date.now() + deps.queueTtlMs),
      });
      return { saved: rows[0] as Row, write };
    });
    const ended = await sendRecorded(deps, device, write);
    return { ...toSettings(saved), write: toRecord(ended, request.t) };
  });

  bindRoute(app, API.generator.del, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    await refuseVppControlled(db, device, auth);
    await db.query("DELETE FROM device_generator WHERE device_id = $1", [device.id]);
    return null;
  });
}
