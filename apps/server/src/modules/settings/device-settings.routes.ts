import { API, DEVICE_WRITES_PATTERN } from "@ess/contracts";
import { checkSettingChange, getRegister, problem, type RuleProblem } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { detached } from "../../db/audit-scope.ts";
import type { Db } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { business, notFound, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { dataScope } from "../scope/data-scope.ts";
import type { DeviceRequests } from "../telemetry/device-requests.ts";
import { findDeviceInScope, type ScopedDevice } from "../telemetry/device-scope.ts";
import { currentSettings as readCurrentSettings } from "./current-settings.ts";
import type { DeviceWriter } from "./device-writer.ts";
import { rightsOfCaller } from "./visibility.ts";
import { recordAndSend, refuseVppControlled, refuseWhileRunning, runningAmong } from "./write-guards.ts";
import { insertWrites, toRecord, writesPage } from "./write-records.repository.ts";

const productOf = (device: { phaseType: 1 | 2 | null }) => (device.phaseType === 1 ? "single" : "three");

/**
 * Remote settings and commands: each change is checked (audience, catalogue, spec §5 rules),
 * recorded, and sent through the device writer; the answer is the record as it ended (or queued).
 */
export function registerDeviceSettingsRoutes(
  app: FastifyInstance,
  deps: { db: Db; requests: DeviceRequests | null; writer: DeviceWriter; hub: RealtimeHub; queueTtlMs: number },
) {
  const { db } = deps;

  deps.hub.authorise(DEVICE_WRITES_PATTERN, async (caller, params) => {
    const deviceId = Number(params.deviceId);
    if (!Number.isInteger(deviceId) || !caller.permissions.has("device.param.read")) return false;
    return findDeviceInScope(db, caller, deviceId).then(
      () => true,
      () => false,
    );
  });

  const currentSettings = (device: ScopedDevice, keys: string[]) => readCurrentSettings(deps, device, keys);

  const expiresAt = () => new Date(Date.now() + deps.queueTtlMs);

  bindRoute(app, API.deviceSettings.write, async ({ input, auth, request }) => {
    const { deviceId, values, queueIfOffline } = input.body;
    const device = await findDeviceInScope(db, auth, deviceId);
    await refuseVppControlled(db, device, auth, Object.keys(values));
    if (device.onlineStatus === 0 && !queueIfOffline) throw business("telemetry:deviceOffline");
    const rightsOf = await rightsOfCaller(db, auth);
    const problems: RuleProblem[] = [];
    for (const key of Object.keys(values)) {
      const r = getRegister(key);
      if (r && r.id === key && !rightsOf(key).set) problems.push(problem(key, "settings:notForAudience"));
    }
    if (problems.length > 0) throw new ValidationError(problems);
    const current = await currentSettings(device, Object.keys(values));
    const broken = checkSettingChange(productOf(device), current, values);
    if (broken.length > 0) throw new ValidationError(broken);
    await refuseWhileRunning(db, device, Object.keys(values), request.t);
    const row = await recordAndSend(deps, device, auth, {
      changes: Object.entries(values).map(([key, value]) => ({ key, old: current[key] ?? null, new: value })),
      command: null,
      expiresAt: expiresAt(),
    });
    return toRecord(row, request.t);
  });

  bindRoute(app, API.deviceSettings.command, async ({ input, auth, request }) => {
    const { deviceId, command, queueIfOffline } = input.body;
    const device = await findDeviceInScope(db, auth, deviceId);
    await refuseVppControlled(db, device, auth);
    if (device.onlineStatus === 0 && !queueIfOffline) throw business("telemetry:deviceOffline");
    const row = await recordAndSend(deps, device, auth, { changes: [], command, expiresAt: expiresAt() });
    return toRecord(row, request.t);
  });

  bindRoute(app, API.deviceSettings.records, async ({ input, auth, request }) => {
    const { deviceId, current, size, kind } = input.query;
    const device = await findDeviceInScope(db, auth, deviceId);
    const { rows, total } = await writesPage(db, { deviceId: device.id, kind }, current, size);
    return { records: rows.map((r) => toRecord(r, request.t)), total, size, current, pages: Math.ceil(total / size) };
  });

  bindRoute(app, API.deviceSettings.bulk, async ({ input, auth }) => {
    const { filter, values, command, queueIfOffline } = input.body;
    const scope = dataScope(auth).devices("d");
    const conditions: string[] = [];
    const params: unknown[] = [];
    const built = scope.build();
    params.push(...built.values);
    conditions.push(built.text, "d.deleted_at IS NULL");
    if (filter.deviceIds) conditions.push(`d.id = ANY($${params.push(filter.deviceIds)}::bigint[])`);
    if (filter.snPrefix) conditions.push(`d.sn LIKE $${params.push(`${filter.snPrefix.replace(/[\\%_]/g, "\\$&")}%`)}`);
    if (filter.phaseType) conditions.push(`d.phase_type = $${params.push(filter.phaseType)}`);
    if (filter.onlineStatus !== undefined) conditions.push(`d.online_status = $${params.push(filter.onlineStatus)}`);
    let product: "single" | "three" | null = null;
    if (values) {
      const rightsOf = await rightsOfCaller(db, auth);
      const first = getRegister(Object.keys(values)[0] ?? "");
      product = first?.product ?? "three";
      const problems = checkSettingChange(product, {}, values);
      for (const key of Object.keys(values)) {
        const r = getRegister(key);
        if (r && r.id === key && !rightsOf(key).set) problems.push(problem(key, "settings:notForAudience"));
      }
      if (problems.length > 0) throw new ValidationError(problems);
      // The registers belong to one product: only its devices take them.
      conditions.push(`d.phase_type = $${params.push(product === "single" ? 1 : 2)}`);
    }
    const { rows: devices } = await db.query<{ id: number; sn: string; tenant_id: number; online_status: number; vpp: boolean }>(
      `SELECT d.id, d.sn, d.tenant_id, d.online_status, d.vpp_controlled AS vpp FROM device d
        WHERE ${conditions.join(" AND ")} ORDER BY d.id LIMIT 10001`,
      params,
    );
    if (filter.deviceIds) {
      const found = new Set(devices.map((d) => d.id));
      // An id outside the caller's scope does not exist for them (and nothing is sent to any).
      const { rows: inScope } = await db.query<{ id: number }>(
        `SELECT d.id FROM device d WHERE d.id = ANY($${built.values.length + 1}::bigint[]) AND d.deleted_at IS NULL AND ${built.text}`,
        [...built.values, filter.deviceIds],
      );
      if (inScope.length < new Set(filter.deviceIds).size) throw notFound("telemetry:deviceNotFound");
      if (found.size === 0) throw business("settings:bulkNoDevice");
    }
    if (devices.length === 0) throw business("settings:bulkNoDevice");
    if (devices.length > 10_000) throw business("settings:bulkTooMany", { max: 10_000 });
    const targets = auth.userType === 2 ? devices.filter((d) => !d.vpp) : devices;
    const { bulkId, rows } = await db.transaction(async (tx) => {
      // Held by this process while it sends (`runBulk` renews the hold); another takes over if it stops.
      const op = await tx.query<{ id: number }>(
        `INSERT INTO device_bulk_operation (tenant_id, created_by, payload, filter, total, queue_if_offline, runner_until)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::float8 / 1000)) RETURNING id`,
        [
          auth.tenantId,
          auth.userId,
          JSON.stringify(values ? { values } : { command }),
          JSON.stringify(filter),
          targets.length,
          queueIfOffline,
          deps.writer.bulkLeaseMs,
        ],
      );
      const id = op.rows[0]?.id as number;
      const inserted = await insertWrites(
        tx,
        targets.map((d) => ({
          tenantId: d.tenant_id,
          deviceId: d.id,
          bulkId: id,
          kind: values ? "setting" : "command",
          changes: values ? Object.entries(values).map(([key, value]) => ({ key, old: null, new: value })) : [],
          command: values ? null : (command as number),
          createdBy: auth.userId,
          createdByName: auth.name || auth.username,
          expiresAt: expiresAt(),
        })),
      );
      return { bulkId: id, rows: inserted };
    });
    const byId = new Map(targets.map((d) => [d.id, d]));
    const running = await runningAmong(db, [...byId.keys()], Object.keys(values ?? {}));
    // The devices answer after the request has been answered: their records end on their own.
    void detached(() =>
      deps.writer.runBulk(
        bulkId,
        rows.map((row) => {
          const d = byId.get(row.device_id) as (typeof targets)[number];
          return { row, sn: d.sn, online: d.online_status !== 0, queueIfOffline, running: running.has(d.id) };
        }),
      ),
    );
    return { bulkId, total: rows.length };
  });

  bindRoute(app, API.deviceSettings.bulkOutcome, async ({ input, auth, request }) => {
    const { bulkId, current, size } = input.query;
    // Another organisation's operation does not exist for the caller, as any record out of scope.
    const op = await first<{ id: number }>(
      db,
      sql`SELECT o.id FROM device_bulk_operation o WHERE o.id = ${bulkId} AND ${dataScope(auth).bulkOperations("o")}`,
    );
    if (!op) throw notFound("settings:bulkNotFound");
    // Only the devices the caller may see, counted and listed.
    const scope = dataScope(auth).devices("d").build(1);
    const { rows: counts } = await db.query<{ state: string; n: number }>(
      `SELECT w.state, count(*)::int AS n FROM device_write w JOIN device d ON d.id = w.device_id
        WHERE w.bulk_id = $1 AND ${scope.text} GROUP BY w.state`,
      [bulkId, ...scope.values],
    );
    const total = counts.reduce((s, c) => s + c.n, 0);
    const page = await db.query(
      `SELECT w.id FROM device_write w JOIN device d ON d.id = w.device_id WHERE w.bulk_id = $1 AND ${scope.text}
        ORDER BY w.id LIMIT ${size} OFFSET ${(current - 1) * size}`,
      [bulkId, ...scope.values],
    );
    const ids = page.rows.map((r) => (r as { id: number }).id);
    const { rows } = await writesPage(db, { bulkId, ids }, 1, size);
    return {
      records: rows.sort((a, b) => a.id - b.id).map((r) => ({ ...toRecord(r, request.t), sn: r.sn })),
      total,
      size,
      current,
      pages: Math.ceil(total / size),
      counts: Object.fromEntries(counts.map((c) => [c.state, c.n])),
    };
  });
}
