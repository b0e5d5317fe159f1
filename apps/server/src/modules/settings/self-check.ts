import { API, decodeValues, frameFromStored } from "@ess/contracts";
import { getRegister, SELF_CHECK_REGISTERS } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { business } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { type DeviceRequests, DeviceTimeoutError } from "../telemetry/device-requests.ts";
import { findDeviceInScope, type ScopedDevice } from "../telemetry/device-scope.ts";
import { latestOf } from "../telemetry/telemetry.repository.ts";
import { toCsv } from "../users/csv.ts";
import type { DeviceWriter } from "./device-writer.ts";
import { recordWrite } from "./write-guards.ts";

const SINGLE = SELF_CHECK_REGISTERS.single;
/** The settings page that holds the single-phase start register (read to see whether the check still runs). */
const SINGLE_START_PAGE = getRegister(SINGLE.start)?.page ?? 8;

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
 * Device self-check: started as a change record of the model's start register; followed to its end
 * (2 failed, 3 done). Three-phase devices report the state in every reading: a running check takes
 * the state of the first reading after it started that is no longer "checking". Single-phase
 * devices report no state: a check runs while the device still holds its start register at 1 (read
 * from its settings page while a check runs), and failed when the self-inspection word of its
 * newest reading has an item's bit set.
 */
export function registerSelfCheckRoutes(
  app: FastifyInstance,
  deps: { db: Db; writer: DeviceWriter; requests: DeviceRequests | null },
) {
  const { db } = deps;

  /** The self-check state of the device's newest reading (three-phase), or its ended state (single-phase). */
  async function endedState(device: ScopedDevice, latest: NonNullable<Awaited<ReturnType<typeof latestOf>>>) {
    const values = decodeValues(frameFromStored(latest.ts.getTime(), latest.seq, latest.words)).values;
    if (device.phaseType !== 1) return values[SELF_CHECK_REGISTERS.three.state];
    if (!deps.requests || device.onlineStatus === 0) return undefined;
    try {
      const page = await deps.requests.readPage(device.sn, SINGLE_START_PAGE);
      if (page.values[SINGLE.start] !== 0) return undefined;
    } catch (error) {
      if (error instanceof DeviceTimeoutError) return undefined;
      throw error;
    }
    return values[SINGLE.result] ? 2 : 3;
  }

  /** Brings running checks of a device up to the newest reading. */
  async function follow(device: ScopedDevice) {
    const running = await db.query("SELECT 1 FROM device_self_check WHERE device_id = $1 AND state = 1 LIMIT 1", [device.id]);
    if (running.rows.length === 0) return;
    const latest = await latestOf(db, device.id);
    if (!latest) return;
    const state = await endedState(device, latest);
    if (state !== 2 && state !== 3) return;
    // Single-phase: the end is seen now, so it counts from the newest reading at the latest.
    const at = device.phaseType === 1 ? new Date(Math.max(latest.ts.getTime(), Date.now())) : latest.ts;
    await db.query(
      `UPDATE device_self_check SET state = $2, finished_at = $3
        WHERE device_id = $1 AND state = 1 AND started_at < $3`,
      [device.id, state, at],
    );
  }

  bindRoute(app, API.selfCheck.start, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    if (device.phaseType === null) throw business("settings:selfCheckUnsupported");
    if (device.onlineStatus === 0) throw business("telemetry:deviceOffline");
    const start = device.phaseType === 1 ? SINGLE.start : SELF_CHECK_REGISTERS.three.start;
    const write = await recordWrite(db, device, auth, {
      changes: [{ key: start, old: null, new: 1 }],
      command: null,
      expiresAt: null,
    });
    const ended = await deps.writer.dispatch(write.id, device.sn);
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
    await follow(device);
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
    await follow(device);
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
