import { API, type ModeRecord, parsePeriods } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { notFound, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";

interface Row {
  id: number;
  code: string;
  name: string;
  description: string;
  state: number;
  sort: number;
  charge_enabled: boolean;
  sell_enabled: boolean;
  discharge_enabled: boolean;
  charge_soc: number;
  sell_soc: number;
  discharge_off_soc: number;
  periods: { start: string; end: string }[];
  updated_at: Date;
}

const toRecord = (r: Row): ModeRecord => ({
  id: r.id,
  code: r.code,
  name: r.name,
  description: r.description,
  state: r.state,
  sort: r.sort,
  chargeEnabled: r.charge_enabled,
  sellEnabled: r.sell_enabled,
  dischargeEnabled: r.discharge_enabled,
  chargeSoc: r.charge_soc,
  sellSoc: r.sell_soc,
  dischargeOffSoc: r.discharge_off_soc,
  periodsText: r.periods.map((p) => `${p.start}-${p.end}`).join("\n"),
  updateTime: r.updated_at.toISOString(),
});

/** Registers that hold a device's system mode (three-phase, single-phase). */
const MODE_KEYS = ["TP_0X03_72", "TP_0X03_1043", "systemModeSet", "systemModeSettings"];

/** Mode management and the mode-switch records of a device. */
export function registerModeRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  const taken = (error: unknown) => {
    if (isUniqueViolation(error))
      throw new ValidationError([
        { field: "code", key: "validation:taken", values: { field: "code" }, label: "fields:modeCode" },
      ]);
    throw error;
  };

  bindRoute(app, API.mode.page, async ({ input, auth }) => {
    const { current, size, name, code } = input.query;
    const where = ["tenant_id = $1", "deleted_at IS NULL"];
    const params: unknown[] = [auth.tenantId];
    if (name) where.push(`name ILIKE $${params.push(`%${name.replace(/[\\%_]/g, "\\$&")}%`)}`);
    if (code) where.push(`code ILIKE $${params.push(`%${code.replace(/[\\%_]/g, "\\$&")}%`)}`);
    const total =
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM energy_mode WHERE ${where.join(" AND ")}`, params)).rows[0]
        ?.n ?? 0;
    const { rows } = await db.query<Row>(
      `SELECT * FROM energy_mode WHERE ${where.join(" AND ")} ORDER BY sort, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (current - 1) * size],
    );
    return { records: rows.map(toRecord), total, size, current, pages: Math.ceil(total / size) };
  });

  const values = (b: {
    code: string;
    name: string;
    description: string;
    state: number;
    sort: number;
    chargeEnabled: boolean;
    sellEnabled: boolean;
    dischargeEnabled: boolean;
    chargeSoc: number;
    sellSoc: number;
    dischargeOffSoc: number;
    periodsText: string;
  }) => [
    b.code,
    b.name,
    b.description,
    b.state,
    b.sort,
    b.chargeEnabled,
    b.sellEnabled,
    b.dischargeEnabled,
    b.chargeSoc,
    b.sellSoc,
    b.dischargeOffSoc,
    JSON.stringify(parsePeriods(b.periodsText)),
  ];

  bindRoute(app, API.mode.save, async ({ input, auth }) => {
    const { rows } = await db
      .query<Row>(
        `INSERT INTO energy_mode (code, name, description, state, sort, charge_enabled, sell_enabled, discharge_enabled,
                charge_soc, sell_soc, discharge_off_soc, periods, tenant_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
        [...values(input.body), auth.tenantId],
      )
      .catch(taken);
    return toRecord(rows[0] as Row);
  });

  bindRoute(app, API.mode.edit, async ({ input, auth }) => {
    const { rows } = await db
      .query<Row>(
        `UPDATE energy_mode SET code = $1, name = $2, description = $3, state = $4, sort = $5, charge_enabled = $6,
                sell_enabled = $7, discharge_enabled = $8, charge_soc = $9, sell_soc = $10, discharge_off_soc = $11,
                periods = $12, updated_at = now()
          WHERE id = $13 AND tenant_id = $14 AND deleted_at IS NULL RETURNING *`,
        [...values(input.body), input.body.id, auth.tenantId],
      )
      .catch(taken);
    if (!rows[0]) throw notFound();
    return toRecord(rows[0]);
  });

  bindRoute(app, API.mode.del, async ({ input, auth }) => {
    const { rowCount } = await db.query(
      "UPDATE energy_mode SET deleted_at = now() WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL",
      [input.body.id, auth.tenantId],
    );
    if (!rowCount) throw notFound();
    return null;
  });

  bindRoute(app, API.mode.switchRecords, async ({ input, auth }) => {
    const { deviceId, current, size } = input.query;
    const device = await findDeviceInScope(db, auth, deviceId);
    const filter = `w.device_id = $1 AND w.kind = 'setting' AND EXISTS (
        SELECT 1 FROM jsonb_array_elements(w.changes) c WHERE c->>'key' = ANY($2::text[]))`;
    const total =
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_write w WHERE ${filter}`, [device.id, MODE_KEYS]))
        .rows[0]?.n ?? 0;
    const { rows } = await db.query<{
      id: number;
      created_at: Date;
      created_by_name: string;
      changes: { key: string; old: number | null; new: number }[];
      state: string;
    }>(
      `SELECT w.id, w.created_at, w.created_by_name, w.changes, w.state FROM device_write w WHERE ${filter}
        ORDER BY w.id DESC LIMIT $3 OFFSET $4`,
      [device.id, MODE_KEYS, size, (current - 1) * size],
    );
    return {
      records: rows.map((r) => {
        const c = r.changes.find((x) => MODE_KEYS.includes(x.key)) as { old: number | null; new: number };
        return { id: r.id, at: r.created_at.getTime(), by: r.created_by_name, from: c.old, to: c.new, state: r.state };
      }),
      total,
      size,
      current,
      pages: Math.ceil(total / size),
    };
  });
}
