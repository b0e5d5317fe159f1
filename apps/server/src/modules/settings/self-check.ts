import { API, decodeValues, frameFromStored } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { business } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";
import { latestOf } from "../telemetry/telemetry.repository.ts";
import { toCsv } from "../users/csv.ts";
import type { DeviceWriter } from "./device-writer.ts";
import { insertWrites } from "./write-records.repository.ts";

/** The self-test register (three-phase) and the self-check state the device reports (selfCheckFilter). */
const START_REGISTER = "TP_0X03_58";
const STATE_REGISTER = "TP_0X04_1294";

interface Row {
  id: number;
  started_by_name: string;
  started_at: Date;
  state: number;
  finished_at: Date | null;
}
const toRecord = (r: Row) => ({
  id: r.id,
  startedAt: r.started_at.getTime(),
  startedBy: r.started_by_name,
  state: r.state,
  finishedAt: r.finished_at?.getTime() ?? null,
});

/**
 * Device self-check: started as a change record of the self-test register; followed through the
 * state in the device's readings — a running check takes the state of the first reading after it
 * started that is no longer "checking" (2 failed, 3 done).
 */
export function registerSelfCheckRoutes(app: FastifyInstance, deps: { db: Db; writer: DeviceWriter }) {
  const { db } = deps;

  /** Brings running checks of a device up to the newest reading. */
  async function follow(deviceId: number) {
    const latest = await latestOf(db, deviceId);
    if (!latest) return;
    const state = decodeValues(frameFromStored(latest.ts.getTime(), latest.seq, latest.words)).values[STATE_REGISTER];
    if (state !== 2 && state !== 3) return;
    await db.query(
      `UPDATE device_self_check SET state = $2, finished_at = $3
        WHERE device_id = $1 AND state = 1 AND started_at < $3`,
      [deviceId, state, latest.ts],
    );
  }

  bindRoute(app, API.selfCheck.start, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    if (device.phaseType !== 2) throw business("settings:selfCheckUnsupported");
    if (device.onlineStatus === 0) throw business("telemetry:deviceOffline");
    const [write] = await insertWrites(db, [
      {
        tenantId: device.tenantId,
        deviceId: device.id,
        bulkId: null,
        kind: "setting",
        changes: [{ key: START_REGISTER, old: null, new: 1 }],
        command: null,
        createdBy: auth.userId,
        createdByName: auth.name || auth.username,
        expiresAt: null,
      },
    ]);
    const ended = write ? await deps.writer.dispatch(write.id, device.sn) : undefined;
    if (ended?.state !== "acknowledged") {
      throw business(ended?.refusal_key ?? "settings:refusal.timeout");
    }
    const { rows } = await db.query<Row>(
      "INSERT INTO device_self_check (device_id, write_id, started_by_name, state) VALUES ($1, $2, $3, 1) RETURNING *",
      [device.id, ended.id, auth.name || auth.username],
    );
    return toRecord(rows[0] as Row);
  });

  bindRoute(app, API.selfCheck.page, async ({ input, auth }) => {
    const { deviceId, current, size } = input.query;
    const device = await findDeviceInScope(db, auth, deviceId);
    await follow(device.id);
    const total =
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM device_self_check WHERE device_id = $1", [device.id]))
        .rows[0]?.n ?? 0;
    const { rows } = await db.query<Row>(
      "SELECT * FROM device_self_check WHERE device_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
      [device.id, size, (current - 1) * size],
    );
    return { records: rows.map(toRecord), total, size, current, pages: Math.ceil(total / size) };
  });

  bindRoute(app, API.selfCheck.report, async ({ input, auth, reply, request }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    await follow(device.id);
    const { rows } = await db.query<Row>("SELECT * FROM device_self_check WHERE device_id = $1 ORDER BY id DESC LIMIT 10000", [
      device.id,
    ]);
    const t = request.t;
    const csv = toCsv(
      ["id", "sn", "startedAt", "startedBy", "state", "finishedAt"].map((h) => t(`settings:selfCheck.columns.${h}`)),
      rows.map((r) => [
        r.id,
        device.sn,
        r.started_at.toISOString(),
        r.started_by_name,
        t(`enums:selfCheckFilter.${r.state}`),
        r.finished_at?.toISOString() ?? "",
      ]),
    );
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="self-check-${device.sn}.csv"`)
      .send(csv);
    return "";
  });
}
