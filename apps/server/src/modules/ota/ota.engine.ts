import { CONSOLE_LEAVES, deviceTopic, type OtaProgress } from "@ess/contracts";
import { causeOfResult, type FailureCause } from "@ess/domain";
import { type LeaseFence, leaseStillHeld } from "../../cluster/job-lease.ts";
import type { Db } from "../../db/db.ts";
import type { MqttBus } from "../../mqtt/bus.ts";
import type { Log } from "../telemetry/log.ts";

export interface OtaOptions {
  /** How often the dispatcher looks at open upgrades and campaigns. */
  tickMs: number;
  /** A sent order without the device's acceptance is sent again (or given up) after this. */
  confirmTimeoutS: number;
  /** An accepted upgrade without progress for this long is sent again (or given up). */
  progressTimeoutS: number;
  /** How long an upgrade waits for its device to come (back) online: a single upgrade, or a campaign's devices after its last time. */
  offlineGiveUpS: number;
  /** Orders per upgrade before it fails (the first and the resumptions). */
  maxAttempts: number;
}

export const DEFAULT_OTA_OPTIONS: OtaOptions = {
  tickMs: 1000,
  confirmTimeoutS: 60,
  progressTimeoutS: 120,
  offlineGiveUpS: 3600,
  maxAttempts: 3,
};

interface OrderRow {
  id: number;
  sn: string;
  request_id: number;
  firmware_type: number;
  version_code: string;
  file_id: number;
  size: number;
  sha256: string;
  crc32: string;
  bms_id: number | null;
  bcu_id: number | null;
}

interface CampaignRow {
  id: number;
  state: string;
  times: string[];
  run_index: number;
  batch_size: number;
  batch_interval_s: number;
  last_batch_at: Date | null;
}

const idsOf = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

const OVERALL: Record<string, (p: number) => number> = {
  accepted: () => 0,
  downloading: (p) => p * 0.5,
  flashing: (p) => 50 + p * 0.45,
  verifying: (p) => 95 + p * 0.05,
};

/**
 * The upgrade state machine and the campaign dispatcher. Everything lives in the database, so a
 * restarted server carries on where it stopped: each tick sends orders to upgrades not yet sent
 * (single upgrades at once, campaigns in paced batches within their schedule), sends again or
 * fails upgrades whose device went quiet, and closes campaigns. Device answers arrive on `ota`
 * and move their upgrade by request id (unique across restarts, so a late answer to an old order
 * changes nothing). Every open upgrade has a deadline: none stays open forever.
 */
export function createOtaEngine(deps: {
  db: Db;
  bus: MqttBus;
  log: Log;
  /** Where devices fetch packages: the console's address as devices reach it. */
  baseUrl: () => string;
  options?: Partial<OtaOptions>;
  /** Told after upgrades changed (live views). */
  onChange?: (deviceIds: number[]) => void;
  /** Gives devices whose upgrades ended their real online status back (presence). */
  restoreOnline?: (deviceIds: number[]) => Promise<unknown>;
}) {
  const o = { ...DEFAULT_OTA_OPTIONS, ...deps.options };
  const { db } = deps;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  // The dispatcher's lease while this process runs it: its ticks' claims hold only under its token.
  let fence: LeaseFence | null = null;

  /** Claims the given unsent upgrades and publishes their orders; with `lease`, only while it is still this process's. */
  async function dispatch(ids: number[], lease: LeaseFence | null = null): Promise<number> {
    if (ids.length === 0) return 0;
    const { rows } = await db.query<OrderRow>(
      `WITH claimed AS (
         UPDATE device_upgrade u SET request_id = nextval('ota_request_seq'), sent_at = now(), attempts = attempts + 1,
                deadline_at = now() + make_interval(secs => $2), status = 0, stage = NULL, updated_at = now()
          WHERE u.id = ANY($1::bigint[]) AND u.status IN (0, 1, 2) AND u.request_id IS NULL
            AND ${leaseStillHeld("$3", "$4")}
          RETURNING u.id, u.device_id, u.request_id, u.firmware_type, u.version_code, u.version_id, u.bms_id, u.bcu_id)
       SELECT c.id, d.sn, c.request_id, c.firmware_type, c.version_code, f.id AS file_id, f.size, f.sha256, f.crc32,
              c.bms_id, c.bcu_id
         FROM claimed c JOIN device d ON d.id = c.device_id
         JOIN firmware_version v ON v.id = c.version_id JOIN stored_file f ON f.id = v.file_id`,
      [ids, o.confirmTimeoutS, lease?.job ?? null, lease?.token ?? null],
    );
    const base = deps.baseUrl().replace(/\/$/, "");
    await Promise.all(
      rows.map((r) =>
        deps.bus
          .publish(
            deviceTopic(r.sn, CONSOLE_LEAVES.ota),
            JSON.stringify({
              v: 1,
              id: r.request_id,
              firmwareType: r.firmware_type,
              version: r.version_code,
              url: `${base}/ota/package/${r.file_id}`,
              size: r.size,
              sha256: r.sha256,
              crc32: r.crc32,
              ...(r.bms_id === null ? {} : { bmsId: r.bms_id }),
              ...(r.bcu_id === null ? {} : { bcuId: r.bcu_id }),
            }),
            { qos: 1 },
          )
          // Unsent orders time out like unanswered ones and are sent again.
          .catch((error) => deps.log.warn({ err: error, sn: r.sn }, "OTA order not published")),
      ),
    );
    return rows.length;
  }

  /** Fails open upgrades (by id) with a cause; answers their devices. */
  async function fail(ids: number[], cause: FailureCause, extra = ""): Promise<number[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<{ device_id: number }>(
      `UPDATE device_upgrade SET status = 3, cause = $2, finished_at = now(), updated_at = now(), request_id = NULL, deadline_at = NULL
        WHERE id = ANY($1::bigint[]) AND status IN (0, 1, 2) ${extra} RETURNING device_id`,
      [ids, cause],
    );
    return rows.map((r) => r.device_id);
  }

  /**
   * Open upgrades whose deadline passed: sent again while attempts remain, else failed. Answers
   * the devices touched. Each change checks the deadline again, so two processes expiring at once
   * spend one attempt, not two.
   */
  async function expire(): Promise<number[]> {
    const { rows } = await db.query<{ id: number; attempts: number; campaign_id: number | null; online: number; sent: boolean }>(
      `SELECT u.id, u.attempts, u.campaign_id, d.online_status AS online, u.request_id IS NOT NULL AS sent
         FROM device_upgrade u JOIN device d ON d.id = u.device_id
        WHERE u.status IN (0, 1, 2) AND u.deadline_at < now()`,
    );
    const retry = rows.filter((r) => r.sent && r.attempts < o.maxAttempts).map((r) => r.id);
    const giveUp = rows.filter((r) => !r.sent || r.attempts >= o.maxAttempts);
    const touched: number[] = [];
    if (retry.length > 0) {
      const { rows: retried } = await db.query<{ device_id: number }>(
        `UPDATE device_upgrade SET request_id = NULL, status = 0, stage = NULL, updated_at = now(),
                deadline_at = CASE WHEN campaign_id IS NULL THEN now() + make_interval(secs => $2) END
          WHERE id = ANY($1::bigint[]) AND status IN (0, 1, 2) AND deadline_at < now() RETURNING device_id`,
        [retry, o.offlineGiveUpS],
      );
      touched.push(...retried.map((r) => r.device_id));
    }
    const overdue = "AND deadline_at < now()";
    touched.push(
      ...(await fail(idsOf(giveUp.filter((r) => r.sent && r.online !== 0)), "timeout", overdue)),
      ...(await fail(idsOf(giveUp.filter((r) => !r.sent || r.online === 0)), "offline", overdue)),
    );
    return touched;
  }

  /** Single-device upgrades waiting to be (re)sent go as soon as their device is online. */
  async function dispatchSingles(): Promise<void> {
    const { rows } = await db.query<{ id: number }>(
      `SELECT u.id FROM device_upgrade u JOIN device d ON d.id = u.device_id
        WHERE u.campaign_id IS NULL AND u.status = 0 AND u.request_id IS NULL AND d.online_status <> 0`,
    );
    await dispatch(idsOf(rows), fence);
  }

  async function advanceCampaign(c: CampaignRow, now: number, ended: number[]): Promise<void> {
    if (c.state === "scheduled" || c.state === "waiting") {
      const next = c.times[c.run_index + 1];
      if (!next || new Date(next).getTime() > now) return;
      await db.query(
        "UPDATE ota_campaign SET state = 'running', run_index = run_index + 1, last_batch_at = NULL, updated_at = now() WHERE id = $1 AND state = $2",
        [c.id, c.state],
      );
      c.state = "running";
      c.run_index += 1;
      c.last_batch_at = null;
    }
    if (c.state !== "running") return;
    const counts = (
      await db.query<{ inflight: number; waiting_online: number; waiting: number }>(
        `SELECT count(*) FILTER (WHERE u.request_id IS NOT NULL)::int AS inflight,
                count(*) FILTER (WHERE u.request_id IS NULL AND d.online_status <> 0)::int AS waiting_online,
                count(*) FILTER (WHERE u.request_id IS NULL)::int AS waiting
           FROM device_upgrade u JOIN device d ON d.id = u.device_id
          WHERE u.campaign_id = $1 AND u.status IN (0, 1, 2)`,
        [c.id],
      )
    ).rows[0] ?? { inflight: 0, waiting_online: 0, waiting: 0 };
    if (counts.inflight === 0 && counts.waiting_online === 0) {
      // Devices offline for a moment (a reboot, a console restart) are waited for: until the next
      // upgrade time of the schedule, or for the give-up time after this one.
      const runStart = new Date(c.times[c.run_index] as string).getTime();
      const next = c.times[c.run_index + 1];
      const windowEnds = next ? new Date(next).getTime() : runStart + o.offlineGiveUpS * 1000;
      if (counts.waiting > 0 && now < windowEnds) return;
      if (counts.waiting > 0 && next) {
        // The devices still offline get the next upgrade time of the schedule.
        await db.query("UPDATE ota_campaign SET state = 'waiting', updated_at = now() WHERE id = $1 AND state = 'running'", [
          c.id,
        ]);
        return;
      }
      if (counts.waiting > 0) {
        const { rows } = await db.query<{ id: number }>(
          "SELECT id FROM device_upgrade WHERE campaign_id = $1 AND status IN (0, 1, 2) AND request_id IS NULL",
          [c.id],
        );
        ended.push(...(await fail(idsOf(rows), "offline")));
      }
      await db.query(
        "UPDATE ota_campaign SET state = 'completed', finished_at = now(), updated_at = now() WHERE id = $1 AND state = 'running'",
        [c.id],
      );
      return;
    }
    const due = c.last_batch_at === null || now - c.last_batch_at.getTime() >= c.batch_interval_s * 1000;
    const room = c.batch_size - counts.inflight;
    if (!due || room <= 0 || counts.waiting_online === 0) return;
    const { rows } = await db.query<{ id: number }>(
      `SELECT u.id FROM device_upgrade u JOIN device d ON d.id = u.device_id
        WHERE u.campaign_id = $1 AND u.status IN (0, 1, 2) AND u.request_id IS NULL AND d.online_status <> 0
        ORDER BY u.id LIMIT $2`,
      [c.id, room],
    );
    const sent = await dispatch(idsOf(rows), fence);
    if (sent > 0) await db.query("UPDATE ota_campaign SET last_batch_at = now(), updated_at = now() WHERE id = $1", [c.id]);
  }

  /** Campaigns that stopped (cancelled) are finished once nothing of theirs is open. Answers the devices whose upgrades ended. */
  async function closeCancelled(): Promise<number[]> {
    // Upgrades of a cancelled campaign that wait to be sent (again) are not sent any more.
    const { rows } = await db.query<{ device_id: number }>(
      `UPDATE device_upgrade u SET status = 3, cause = 'cancelled', finished_at = now(), updated_at = now(), deadline_at = NULL
         FROM ota_campaign c
        WHERE c.id = u.campaign_id AND c.state = 'cancelled' AND u.status IN (0, 1, 2) AND u.request_id IS NULL
        RETURNING u.device_id`,
    );
    await db.query(
      `UPDATE ota_campaign c SET finished_at = now(), updated_at = now()
        WHERE c.state = 'cancelled' AND c.finished_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM device_upgrade u WHERE u.campaign_id = c.id AND u.status IN (0, 1, 2))`,
    );
    return rows.map((r) => r.device_id);
  }

  async function tickOnce(): Promise<void> {
    const touched = await expire();
    await dispatchSingles();
    const { rows } = await db.query<CampaignRow>(
      `SELECT id, state, to_json(times) AS times, run_index, batch_size, batch_interval_s, last_batch_at FROM ota_campaign
        WHERE state IN ('scheduled', 'running', 'waiting') ORDER BY id`,
    );
    const now = Date.now();
    for (const c of rows) await advanceCampaign(c, now, touched);
    touched.push(...(await closeCancelled()));
    // Last, after the upgrades sent again have their new order: only devices with nothing under way change.
    if (touched.length > 0) await deps.restoreOnline?.([...new Set(touched)]);
  }

  function tick(): Promise<void> {
    ticking ??= tickOnce()
      .catch((error) => deps.log.error({ err: error }, "OTA dispatcher tick failed"))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  /**
   * A device's report on its upgrade (`ota` leaf). Unknown or stale request ids change nothing.
   * Answers whether an upgrade of the device is under way after it (its online status is then 2).
   */
  async function progress(deviceId: number, p: OtaProgress): Promise<boolean> {
    const overall = OVERALL[p.stage]?.(p.percent) ?? 100;
    let changed = 0;
    if (p.stage === "succeeded") {
      const { rows } = await db.query<{ firmware_type: number; version_code: string }>(
        `UPDATE device_upgrade SET status = 4, stage = 'succeeded', percent = 100, finished_at = now(), updated_at = now(),
                deadline_at = NULL, request_id = NULL, bytes_received = GREATEST(bytes_received, bytes_total)
          WHERE device_id = $1 AND request_id = $2 AND status IN (0, 1, 2)
          RETURNING firmware_type, version_code`,
        [deviceId, p.id],
      );
      const done = rows[0];
      if (done) {
        changed = 1;
        await db.query(
          `INSERT INTO device_firmware (device_id, firmware_type, version) VALUES ($1, $2, $3)
           ON CONFLICT (device_id, firmware_type) DO UPDATE SET version = EXCLUDED.version, updated_at = now()`,
          [deviceId, done.firmware_type, p.version ?? done.version_code],
        );
      }
    } else if (p.stage === "failed") {
      const r = await db.query(
        `UPDATE device_upgrade SET status = 3, stage = 'failed', cause = $3, result_code = $4, finished_at = now(),
                updated_at = now(), deadline_at = NULL, request_id = NULL,
                crc_received = COALESCE($5, crc_received), bytes_received = GREATEST(bytes_received, COALESCE($6, 0))
          WHERE device_id = $1 AND request_id = $2 AND status IN (0, 1, 2)`,
        [deviceId, p.id, causeOfResult(p.resultCode), p.resultCode ?? null, p.crcReceived ?? null, p.bytesReceived ?? null],
      );
      changed = r.rowCount;
    } else {
      const r = await db.query(
        `UPDATE device_upgrade SET status = $3, stage = $4, percent = GREATEST(CASE WHEN status = $3 THEN percent ELSE 0 END, $5),
                bytes_received = GREATEST(bytes_received, COALESCE($6, 0)), crc_received = COALESCE($7, crc_received),
                deadline_at = now() + make_interval(secs => $8), updated_at = now()
          WHERE device_id = $1 AND request_id = $2 AND status IN (0, 1, 2)`,
        [
          deviceId,
          p.id,
          p.stage === "accepted" ? 1 : 2,
          p.stage,
          overall,
          p.bytesReceived ?? null,
          p.crcReceived ?? null,
          o.progressTimeoutS,
        ],
      );
      changed = r.rowCount;
    }
    if (changed > 0) deps.onChange?.([deviceId]);
    const { rows } = await db.query<{ under_way: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM device_upgrade
                       WHERE device_id = $1 AND (status IN (1, 2) OR (status = 0 AND request_id IS NOT NULL))) AS under_way`,
      [deviceId],
    );
    return rows[0]?.under_way ?? false;
  }

  /**
   * Devices that went offline: their upgrades under way wait to be sent again when they return
   * (the device resumes), or fail once the attempts are used up.
   */
  async function devicesOffline(deviceIds: number[]): Promise<void> {
    if (deviceIds.length === 0) return;
    await db.query(
      `UPDATE device_upgrade SET request_id = NULL, status = 0, stage = NULL, updated_at = now(),
              deadline_at = CASE WHEN campaign_id IS NULL THEN now() + make_interval(secs => $3) END
        WHERE device_id = ANY($1::bigint[]) AND status IN (0, 1, 2) AND request_id IS NOT NULL AND attempts < $2`,
      [deviceIds, o.maxAttempts, o.offlineGiveUpS],
    );
    const { rows } = await db.query<{ id: number }>(
      `SELECT id FROM device_upgrade WHERE device_id = ANY($1::bigint[]) AND status IN (0, 1, 2) AND request_id IS NOT NULL`,
      [deviceIds],
    );
    await fail(idsOf(rows), "offline");
  }

  return {
    options: o,
    dispatch,
    progress,
    devicesOffline,
    tick,
    /** A tick now if this process runs the dispatcher (the `ota` lease's holder: two could send a batch twice), else nothing. */
    nudge: (): Promise<void> => (timer ? tick() : Promise.resolve()),
    /** Ticks every `tickMs`; under `lease` (the `ota` job's), a process that lost it and does not know yet claims nothing. */
    start(lease?: LeaseFence) {
      fence = lease ?? null;
      timer ??= setInterval(() => void tick(), o.tickMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = fence = null;
      await ticking;
    },
  };
}

export type OtaEngine = ReturnType<typeof createOtaEngine>;
