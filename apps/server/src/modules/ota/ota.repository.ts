import type { Campaign, UpgradeRecord } from "@ess/contracts";
import type { CampaignState, FailureCause } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { first, type Sql, sql } from "../../db/sql.ts";

export interface RecordRow {
  id: number;
  device_id: number;
  sn: string;
  device_name: string;
  campaign_id: number | null;
  version_id: number;
  firmware_type: number;
  version_code: string;
  from_version: string | null;
  bms_id: number | null;
  bcu_id: number | null;
  status: number;
  stage: string | null;
  percent: number;
  bytes_total: number;
  bytes_sent: number;
  bytes_received: number;
  crc_sent: string | null;
  crc_received: string | null;
  cause: FailureCause | null;
  result_code: number | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export const RECORD_SELECT = sql.raw(`u.id, u.device_id, d.sn, d.name AS device_name, u.campaign_id, u.version_id,
  u.firmware_type, u.version_code, u.from_version, u.bms_id, u.bcu_id, u.status, u.stage, u.percent, u.bytes_total,
  u.bytes_sent, u.bytes_received, u.crc_sent, u.crc_received, u.cause, u.result_code, u.attempts, u.created_at,
  u.updated_at, u.finished_at`);
export const RECORD_FROM = sql.raw("device_upgrade u JOIN device d ON d.id = u.device_id");

export function toRecord(r: RecordRow): UpgradeRecord {
  return {
    id: r.id,
    deviceId: r.device_id,
    sn: r.sn,
    deviceName: r.device_name,
    campaignId: r.campaign_id,
    versionId: r.version_id,
    firmwareType: r.firmware_type,
    versionCode: r.version_code,
    fromVersion: r.from_version,
    bmsId: r.bms_id,
    bcuId: r.bcu_id,
    status: r.status,
    stage: r.stage,
    percent: Math.round(r.percent * 10) / 10,
    bytesTotal: r.bytes_total,
    bytesSent: r.bytes_sent,
    bytesReceived: r.bytes_received,
    crcSent: r.crc_sent,
    crcReceived: r.crc_received,
    cause: r.cause,
    resultCode: r.result_code,
    attempts: r.attempts,
    createTime: r.created_at.toISOString(),
    updateTime: r.updated_at.toISOString(),
    finishTime: r.finished_at?.toISOString() ?? null,
  };
}

interface CampaignRow {
  id: number;
  name: string;
  version_id: number;
  firmware_type: number;
  version_code: string;
  times: string[];
  batch_size: number;
  batch_interval_s: number;
  bms_id: number | null;
  bcu_id: number | null;
  state: CampaignState;
  excluded: number;
  created_at: Date;
  finished_at: Date | null;
  total: number;
  s0: number;
  s1: number;
  s2: number;
  s3: number;
  s4: number;
}

export const CAMPAIGN_SELECT =
  sql.raw(`c.id, c.name, c.version_id, v.type AS firmware_type, v.version_code, to_json(c.times) AS times,
  c.batch_size, c.batch_interval_s, c.bms_id, c.bcu_id, c.state, c.excluded, c.created_at, c.finished_at,
  COALESCE(s.total, 0) AS total, COALESCE(s.s0, 0) AS s0, COALESCE(s.s1, 0) AS s1, COALESCE(s.s2, 0) AS s2,
  COALESCE(s.s3, 0) AS s3, COALESCE(s.s4, 0) AS s4`);
export const CAMPAIGN_FROM = sql.raw(`ota_campaign c JOIN firmware_version v ON v.id = c.version_id
  LEFT JOIN LATERAL (SELECT count(*)::int AS total,
                            count(*) FILTER (WHERE status = 0)::int AS s0, count(*) FILTER (WHERE status = 1)::int AS s1,
                            count(*) FILTER (WHERE status = 2)::int AS s2, count(*) FILTER (WHERE status = 3)::int AS s3,
                            count(*) FILTER (WHERE status = 4)::int AS s4
                       FROM device_upgrade WHERE campaign_id = c.id) s ON TRUE`);

export function toCampaign(r: CampaignRow): Campaign {
  return {
    id: r.id,
    name: r.name,
    versionId: r.version_id,
    firmwareType: r.firmware_type,
    versionCode: r.version_code,
    times: r.times.map((t) => new Date(t).toISOString()),
    batchSize: r.batch_size,
    batchIntervalS: r.batch_interval_s,
    bmsId: r.bms_id,
    bcuId: r.bcu_id,
    state: r.state,
    excluded: r.excluded,
    counts: { total: r.total, pending: r.s0, confirmed: r.s1, upgrading: r.s2, failed: r.s3, succeeded: r.s4 },
    createTime: r.created_at.toISOString(),
    finishTime: r.finished_at?.toISOString() ?? null,
  };
}

export async function findCampaign(db: Queryable, id: number, scope: Sql): Promise<Campaign | undefined> {
  const row = await first<CampaignRow>(db, sql`SELECT ${CAMPAIGN_SELECT} FROM ${CAMPAIGN_FROM} WHERE c.id = ${id} AND ${scope}`);
  return row && toCampaign(row);
}
