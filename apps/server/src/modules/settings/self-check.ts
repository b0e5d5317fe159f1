import { API, decodeValues, frameFromStored } from "@ess/contracts";
import { getRegister, SELF_CHECK_REGISTERS } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { business } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { type DeviceRequests, DeviceTimeoutError } from "../telemetry/device-requests.ts";
import {
  findDeviceInScope,
  SCOPED_DEVICE_COLUMNS,
  type ScopedDevice,
  type ScopedDeviceRow,
  scopedDevice,
} from "../telemetry/device-scope.ts";
import { latestOf } from "../telemetry/telemetry.repository.ts";
import { toCsv } from "../users/csv.ts";
import type { DeviceWriter } from "./device-writer.ts";
import { itemsOfCheck, type SelfCheckRow, selfCheckRecord } from "./self-check-readings.ts";
import { recordWrite } from "./write-guards.ts";

const SINGLE = SELF_CHECK_REGISTERS.single;
/** The settings page that holds the single-phase start register (read to see whether the check still runs). */
const SINGLE_START_PAGE = getRegister(SINGLE.start)?.page ?? 8;

/**
 * Device self-check: started as a change record of the model's start register; followed to its end
 * (2 failed, 3 done). Three-phase devices report the state in every reading: a running check takes
 * the state of the first reading after it started that is no longer "checking". Single-phase
 * devices report no state: a check runs while the device still holds its start register at 1 (read
 * from its settings page while a check runs), and failed when the self-inspection word of its
 * newest reading has an item's bit set. A check still running at its deadline (`timeoutS` after
 * it started) is followed once more, then failed with cause "timeout" by a sweep any process runs.
 */
export function registerSelfCheckRoutes(
  app: FastifyInstance,
  deps: { db: Db; writer: DeviceWriter; requests: DeviceRequests | null; timeoutS: number; sweepMs: number },
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

  /**
   * Brings running checks of a device up to the newest reading; a check that ended keeps what it
   * tested and each result (from its readings) with its state.
   */
  async function follow(device: ScopedDevice) {
    const { rows: running } = await db.query<SelfCheckRow>(
      "SELECT * FROM device_self_check WHERE device_id = $1 AND state = 1 ORDER BY id",
      [device.id],
    );
    if (running.length === 0) return;
    const latest = await latestOf(db, device.id);
    if (!latest) return;
    const state = await endedState(device, latest);
    if (state !== 2 && state !== 3) return;
    // Single-phase: the end is seen now, so it counts from the newest reading at the latest.
    const at = device.phaseType === 1 ? new Date(Math.max(latest.ts.getTime(), Date.now())) : latest.ts;
    const last = decodeValues(frameFromStored(latest.ts.getTime(), latest.seq, latest.words)).values;
    for (const check of running) {
      // Only a reading after the check started ends it (told by the device's own clock where it can be).
      if ((check.from_reading_ts ?? check.started_at) >= at) continue;
      const items = await itemsOfCheck(db, check, device.phaseType, state, at, last);
      await db.query("UPDATE device_self_check SET state = $2, finished_at = $3, items = $4 WHERE id = $1 AND state = 1", [
        check.id,
        state,
        at,
        JSON.stringify(items),
      ]);
    }
  }

  bindRoute(app, API.selfCheck.start, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    if (device.phaseType === null) throw business("settings:selfCheckUnsupported");
    if (device.onlineStatus === 0) throw business("telemetry:deviceOffline");
    const start = device.phaseType === 1 ? SINGLE.start : SELF_CHECK_REGISTERS.three.start;
    const write = await recordWrite(db, device, auth, {
      changes: [{ key: start, old: null, new: 1 }],
      command: null,
      // Sent now or never: were this process to stop before sending it, nobody takes it up later.
      expiresAt: new Date(Date.now() + 1000),
    });
    const ended = await deps.writer.dispatch(write.id, device.sn);
    if (ended?.state !== "acknowledged") {
      throw business(ended?.refusal_key ?? "settings:refusal.timeout");
    }
    const before = await latestOf(db, device.id);
    const { rows } = await db.query<SelfCheckRow>(
      `INSERT INTO device_self_check (device_id, write_id, started_by_name, state, from_reading_ts, deadline_at)
       VALUES ($1, $2, $3, 1, $4, now() + make_interval(secs => $5)) RETURNING *`,
      [device.id, ended.id, auth.name || auth.username, before?.ts ?? null, deps.timeoutS],
    );
    return selfCheckRecord(db, rows[0] as SelfCheckRow, device.phaseType);
  });

  /** Checks past their deadline: followed once more (their end may be in a reading nobody looked at), else failed. */
  async function sweep() {
    const { rows } = await db.query<ScopedDeviceRow>(
      `SELECT ${SCOPED_DEVICE_COLUMNS} FROM device d
        WHERE d.id IN (SELECT device_id FROM device_self_check WHERE state = 1 AND deadline_at < now())`,
    );
    for (const d of rows) {
      await follow(scopedDevice(d)).catch((error) => app.log.warn({ err: error, deviceId: d.id }, "self-check not followed"));
    }
    await db.query(
      "UPDATE device_self_check SET state = 2, cause = 'timeout', finished_at = now() WHERE state = 1 AND deadline_at < now()",
    );
  }
  let sweeping: Promise<void> | null = null;
  const timer = setInterval(() => {
    sweeping ??= sweep()
      .catch((error) => app.log.error({ err: error }, "self-check sweep failed"))
      .finally(() => {
        sweeping = null;
      });
  }, deps.sweepMs);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await sweeping;
  });

  bindRoute(app, API.selfCheck.page, async ({ input, auth }) => {
    const { deviceId, current, size } = input.query;
    const device = await findDeviceInScope(db, auth, deviceId);
    await follow(device);
    const total =
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM device_self_check WHERE device_id = $1", [device.id]))
        .rows[0]?.n ?? 0;
    const { rows } = await db.query<SelfCheckRow>(
      "SELECT * FROM device_self_check WHERE device_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
      [device.id, size, (current - 1) * size],
    );
    const records = [];
    for (const row of rows) records.push(await selfCheckRecord(db, row, device.phaseType));
    return { records, total, size, current, pages: Math.ceil(total / size) };
  });

  bindRoute(app, API.selfCheck.report, async ({ input, auth, reply, request }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    await follow(device);
    const { rows } = await db.query<SelfCheckRow>(
      "SELECT * FROM device_self_check WHERE device_id = $1 ORDER BY id DESC LIMIT 10000",
      [device.id],
    );
    const t = request.t;
    const columns = ["id", "sn", "startedAt", "startedBy", "state", "finishedAt"];
    const itemColumns = ["item", "outcome", "setThreshold", "setTimeMs", "actualThreshold", "actualTimeMs", "realTimeThreshold"];
    const lines: (string | number)[][] = [];
    for (const r of rows) {
      const state = t(`enums:selfCheckFilter.${r.state}`);
      const check = [
        r.id,
        device.sn,
        r.started_at.toISOString(),
        r.started_by_name,
        r.cause ? `${state}: ${t(`settings:refusal.${r.cause}`)}` : state,
      ];
      const finished = r.finished_at?.toISOString() ?? "";
      // One line per item checked, so a reader sees what was checked and each result with its values.
      const items = (await selfCheckRecord(db, r, device.phaseType)).items;
      if (items.length === 0) lines.push([...check, finished, ...itemColumns.map(() => "")]);
      for (const i of items) {
        lines.push([
          ...check,
          finished,
          i.item === 0 ? t("settings:selfCheck.wholeCheck") : t(`enums:TP_0X04_14Filter.${i.item}`),
          t(`settings:selfCheck.outcomes.${i.outcome}`),
          ...[i.setThreshold, i.setTimeMs, i.actualThreshold, i.actualTimeMs, i.realTimeThreshold].map((v) => v ?? ""),
        ]);
      }
    }
    const csv = toCsv(
      [...columns, ...itemColumns].map((h) => t(`settings:selfCheck.columns.${h}`)),
      lines,
    );
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="self-check-${device.sn}.csv"`)
      .send(csv);
    return "";
  });
}
