import { API } from "@ess/contracts";
import { isFirmwareType, needsBcuId, needsBmsId, OTA_SCHEDULE_MAX } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { detached } from "../../db/audit-scope.ts";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, run, type Sql, sql } from "../../db/sql.ts";
import { AppError, business, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";
import { findVersion, type VersionRow } from "./firmware.repository.ts";
import type { OtaEngine } from "./ota.engine.ts";
import {
  CAMPAIGN_FROM,
  CAMPAIGN_SELECT,
  findCampaign,
  RECORD_FROM,
  RECORD_SELECT,
  type RecordRow,
  toCampaign,
  toRecord,
} from "./ota.repository.ts";
import { REPORTED_TYPE, reportedVersions } from "./reported-versions.ts";

const fieldError = (field: string, key: string) => new ValidationError([{ field, key, values: { field } }]);

interface Candidate {
  id: number;
  sn: string;
  name: string;
  phase_type: number | null;
  online_status: number;
  current_version: string | null;
  open_upgrade: boolean;
}

interface Target {
  bmsId: number | null;
  bcuId: number | null;
}

/** The version to issue, refused unless it is firmware with a package; the ids its type needs. */
async function issuable(db: Queryable, auth: AuthContext, versionId: number, field: string, target: Target) {
  const version = await findVersion(db, auth.tenantId, versionId);
  if (!version) throw fieldError(field, "firmware:versionNotFound");
  if (!isFirmwareType(version.type) || version.file_id === null) throw fieldError(field, "ota:notFirmware");
  const problems = [];
  if (needsBcuId(version.type) && target.bcuId === null)
    problems.push({ field: "bcuId", key: "validation:required", values: { field: "bcuId" } });
  if (needsBmsId(version.type) && target.bmsId === null)
    problems.push({ field: "bmsId", key: "validation:required", values: { field: "bmsId" } });
  if (problems.length > 0) throw new ValidationError(problems);
  return version;
}

/** Why a device cannot take a version (an i18n key of `ota`), or null: model, current version, an upgrade under way. */
function incompatibility(version: VersionRow, d: Candidate): string | null {
  if (version.phase_type !== null && d.phase_type !== version.phase_type) return "ota:modelMismatch";
  if (d.current_version === version.version_code) return "ota:alreadyOnVersion";
  if (
    version.upgradeable_from.length > 0 &&
    (d.current_version === null || !version.upgradeable_from.includes(d.current_version))
  )
    return "ota:versionNotUpgradeable";
  if (d.open_upgrade) return "ota:upgradeOpen";
  return null;
}

/**
 * Devices in the caller's scope matching the filter, with what compatibility needs: the version
 * each runs (its last upgrade through the console, else for the MCU what its readings show).
 */
async function candidates(
  db: Queryable,
  auth: AuthContext,
  version: Pick<VersionRow, "type"> | null,
  filter: {
    sn?: string | undefined;
    phaseType?: number | undefined;
    orgId?: number | undefined;
    onlineStatus?: number | undefined;
  },
  target: Target,
  deviceIds?: number[],
) {
  const type = version?.type ?? -1;
  const found = await run<Candidate>(
    db,
    sql`SELECT d.id, d.sn, d.name, d.phase_type, d.online_status, fw.version AS current_version,
               EXISTS (SELECT 1 FROM device_upgrade u WHERE u.device_id = d.id AND u.firmware_type = ${type}
                          AND coalesce(u.bcu_id, 0) = ${target.bcuId ?? 0} AND coalesce(u.bms_id, 0) = ${target.bmsId ?? 0}
                          AND u.status IN (0, 1, 2)) AS open_upgrade
          FROM device d LEFT JOIN device_firmware fw ON fw.device_id = d.id AND fw.firmware_type = ${type}
         WHERE ${sql.and([
           sql`d.deleted_at IS NULL`,
           dataScope(auth).devices("d"),
           filter.sn !== undefined && sql`d.sn ILIKE ${containsPattern(filter.sn)}`,
           filter.phaseType !== undefined && sql`d.phase_type = ${filter.phaseType}`,
           filter.orgId !== undefined && sql`(d.org_id = ${filter.orgId} OR d.installer_org_id = ${filter.orgId})`,
           filter.onlineStatus !== undefined && sql`d.online_status = ${filter.onlineStatus}`,
           deviceIds !== undefined && sql`d.id = ANY(${deviceIds}::bigint[])`,
         ])}
         ORDER BY d.id LIMIT 10000`,
  );
  const unknown = found.rows.filter((d) => d.current_version === null).map((d) => d.id);
  if (type === REPORTED_TYPE && unknown.length > 0) {
    const reported = await reportedVersions(db, unknown);
    for (const d of found.rows) d.current_version ??= reported.get(d.id) ?? null;
  }
  return found;
}

/**
 * OTA: one device now, campaigns to the compatible devices of a filtered set, and the upgrade
 * records. Devices are found through the data scope; campaigns pass it as their own entity.
 */
export function registerOtaRoutes(app: FastifyInstance, deps: { db: Db; engine: OtaEngine | null }) {
  const { db } = deps;
  const engineOrUnavailable = () => {
    if (!deps.engine) throw new AppError("unavailable");
    return deps.engine;
  };
  const campaignScope = (auth: AuthContext): Sql => dataScope(auth).campaigns("c");

  bindRoute(app, API.ota.send, async ({ input, auth }) => {
    const b = input.body;
    const device = await findDeviceInScope(db, auth, b.deviceId);
    const version = await issuable(db, auth, b.id, "id", b);
    const engine = engineOrUnavailable();
    if (device.onlineStatus === 0) throw business("telemetry:deviceOffline");
    const candidate = (await candidates(db, auth, version, {}, b, [device.id])).rows[0];
    const reason = candidate ? incompatibility(version, candidate) : "ota:modelMismatch";
    if (reason) throw business(reason);
    const row = await db.transaction(async (tx) => {
      const inserted = await first<{ id: number }>(
        tx,
        sql`INSERT INTO device_upgrade (tenant_id, device_id, version_id, firmware_type, version_code, from_version, bms_id, bcu_id,
                                        bytes_total, crc_sent, created_by, deadline_at)
            SELECT ${auth.tenantId}, ${device.id}, v.id, v.type, v.version_code, ${candidate?.current_version ?? null},
                   ${needsBmsId(version.type) ? b.bmsId : null}, ${needsBcuId(version.type) ? b.bcuId : null},
                   f.size, f.crc32, ${auth.userId}, now() + make_interval(secs => ${engine.options.offlineGiveUpS})
              FROM firmware_version v JOIN stored_file f ON f.id = v.file_id WHERE v.id = ${version.id}
            RETURNING id`,
      );
      await tx.query("UPDATE firmware_version SET state = 1, updated_at = now() WHERE id = $1 AND state = 0", [version.id]);
      return inserted;
    });
    const id = row?.id as number;
    await engine.dispatch([id]);
    const record = await first<RecordRow>(db, sql`SELECT ${RECORD_SELECT} FROM ${RECORD_FROM} WHERE u.id = ${id}`);
    return toRecord(record as RecordRow);
  });

  bindRoute(app, API.ota.records, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const q = input.query;
    return fetchPage(
      db,
      {
        select: RECORD_SELECT,
        from: RECORD_FROM,
        where: sql`u.device_id = ${device.id}`,
        order: orderBy(q, { id: "u.id", createTime: "u.created_at", status: "u.status" }, "u.id"),
      },
      q,
      toRecord,
    );
  });

  bindRoute(app, API.ota.preview, async ({ input, auth }) => {
    const { versionId, ...filter } = input.query;
    await refuseUnseen(db, dataScope(auth), { organisations: [filter.orgId] });
    const version = versionId === undefined ? null : ((await findVersion(db, auth.tenantId, versionId)) ?? null);
    if (versionId !== undefined && !version) throw fieldError("versionId", "firmware:versionNotFound");
    const { rows } = await candidates(db, auth, version, filter, { bmsId: null, bcuId: null });
    return rows.map((d) => {
      const reason = version ? incompatibility(version, d) : null;
      return {
        id: d.id,
        sn: d.sn,
        name: d.name,
        phaseType: d.phase_type,
        onlineStatus: d.online_status,
        currentVersion: d.current_version,
        compatible: reason === null,
        reason,
      };
    });
  });

  bindRoute(app, API.ota.issue, async ({ input, auth }) => {
    const b = input.body;
    await refuseUnseen(db, dataScope(auth), { organisations: [b.filter?.orgId] });
    const version = await issuable(db, auth, b.versionId, "versionId", b);
    const target = { bmsId: needsBmsId(version.type) ? b.bmsId : null, bcuId: needsBcuId(version.type) ? b.bcuId : null };
    const { rows } = await candidates(db, auth, version, b.filter, target, b.deviceIds);
    // A hand-picked device outside the caller's scope (or the filter) does not exist for them.
    if (b.deviceIds && rows.length < new Set(b.deviceIds).size) throw notFound("telemetry:deviceNotFound");
    const engine = engineOrUnavailable();
    const compatible = rows.filter((d) => incompatibility(version, d) === null);
    if (compatible.length === 0) throw business("ota:noCompatibleDevices");
    const times = [...b.times].sort((x, y) => x.getTime() - y.getTime()).slice(0, OTA_SCHEDULE_MAX);
    const id = await db.transaction(async (tx) => {
      const campaign = await first<{ id: number }>(
        tx,
        sql`INSERT INTO ota_campaign (tenant_id, org_id, created_by, version_id, name, filter, times, batch_size, batch_interval_s,
                                      bms_id, bcu_id, excluded)
            VALUES (${auth.tenantId}, ${auth.userType === 0 ? null : (auth.org?.id ?? null)}, ${auth.userId}, ${version.id}, ${b.name},
                    ${JSON.stringify(b.filter)}::jsonb, ${times.map((t) => t.toISOString())}::timestamptz[], ${b.batchSize},
                    ${b.batchIntervalS}, ${target.bmsId}, ${target.bcuId}, ${rows.length - compatible.length})
            RETURNING id`,
      );
      const campaignId = campaign?.id as number;
      await tx.query(
        `INSERT INTO device_upgrade (tenant_id, device_id, version_id, campaign_id, firmware_type, version_code, from_version,
                                     bms_id, bcu_id, bytes_total, crc_sent, created_by)
         SELECT $1, x.device_id, v.id, $3, v.type, v.version_code, x.from_version, $5, $6, f.size, f.crc32, $7
           FROM unnest($4::bigint[], $8::text[]) AS x(device_id, from_version)
           JOIN firmware_version v ON v.id = $2 JOIN stored_file f ON f.id = v.file_id`,
        [
          auth.tenantId,
          version.id,
          campaignId,
          compatible.map((d) => d.id),
          target.bmsId,
          target.bcuId,
          auth.userId,
          compatible.map((d) => d.current_version),
        ],
      );
      await tx.query("UPDATE firmware_version SET state = 1, updated_at = now() WHERE id = $1 AND state = 0", [version.id]);
      return campaignId;
    });
    void detached(() => engine.nudge());
    return (await findCampaign(db, id, campaignScope(auth))) as NonNullable<Awaited<ReturnType<typeof findCampaign>>>;
  });

  bindRoute(app, API.ota.page, async ({ input, auth }) => {
    const q = input.query;
    return fetchPage(
      db,
      {
        select: CAMPAIGN_SELECT,
        from: CAMPAIGN_FROM,
        where: sql.and([campaignScope(auth), q.name !== undefined && sql`c.name ILIKE ${containsPattern(q.name)}`]),
        order: orderBy(q, { id: "c.id", createTime: "c.created_at", name: "c.name" }, "c.id"),
      },
      q,
      toCampaign as never,
    );
  });

  const campaignOr404 = async (id: number, auth: AuthContext) => {
    const c = await findCampaign(db, id, campaignScope(auth));
    if (!c) throw notFound("ota:campaignNotFound");
    return c;
  };

  bindRoute(app, API.ota.info, async ({ input, auth }) => campaignOr404(input.query.id, auth));

  bindRoute(app, API.ota.devices, async ({ input, auth }) => {
    const q = input.query;
    await campaignOr404(q.id, auth);
    return fetchPage(
      db,
      {
        select: RECORD_SELECT,
        from: RECORD_FROM,
        where: sql.and([
          sql`u.campaign_id = ${q.id}`,
          dataScope(auth).devices("d"),
          q.status !== undefined && sql`u.status = ${q.status}`,
          q.sn !== undefined && sql`d.sn ILIKE ${containsPattern(q.sn)}`,
        ]),
        order: orderBy(q, { id: "u.id", createTime: "u.created_at", status: "u.status" }, "u.id"),
      },
      q,
      toRecord,
    );
  });

  /** Moves a campaign from one of `from` to `to`; refused (business) from any other state. */
  async function transition(id: number, auth: AuthContext, from: string[], to: string, extra?: (tx: Queryable) => Promise<void>) {
    await campaignOr404(id, auth);
    const moved = await db.transaction(async (tx) => {
      const r = await tx.query(
        `UPDATE ota_campaign c SET state = $2, updated_at = now(), finished_at = CASE WHEN $2 = 'cancelled' THEN NULL ELSE finished_at END
          WHERE c.id = $1 AND c.state = ANY($3::text[])`,
        [id, to, from],
      );
      if (r.rowCount > 0) await extra?.(tx);
      return r.rowCount > 0;
    });
    if (!moved) throw business("ota:campaignStateRefused");
    void detached(() => deps.engine?.nudge());
    return campaignOr404(id, auth);
  }

  bindRoute(app, API.ota.pause, ({ input, auth }) =>
    transition(input.body.id, auth, ["scheduled", "running", "waiting"], "paused"),
  );
  // A resumed campaign picks up where it was: running if it had started, else waiting for its first time.
  bindRoute(app, API.ota.resume, async ({ input, auth }) => {
    const c = await campaignOr404(input.body.id, auth);
    const started =
      (await first<{ run_index: number }>(db, sql`SELECT run_index FROM ota_campaign WHERE id = ${c.id}`))?.run_index ?? -1;
    return transition(c.id, auth, ["paused"], started >= 0 ? "running" : "scheduled");
  });
  bindRoute(app, API.ota.cancel, ({ input, auth }) =>
    transition(input.body.id, auth, ["scheduled", "running", "waiting", "paused"], "cancelled", async (tx) => {
      await tx.query(
        `UPDATE device_upgrade SET status = 3, cause = 'cancelled', finished_at = now(), updated_at = now(), deadline_at = NULL
          WHERE campaign_id = $1 AND status IN (0, 1, 2) AND request_id IS NULL`,
        [input.body.id],
      );
    }),
  );
}
