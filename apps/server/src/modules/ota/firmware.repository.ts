import type { FirmwareVersion } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { first, type Sql, sql } from "../../db/sql.ts";

export interface VersionRow {
  id: number;
  tenant_id: number;
  type: number;
  version_code: string;
  version_name: string;
  notes: Record<string, string>;
  download_url: string | null;
  file_id: number | null;
  phase_type: number | null;
  upgradeable_from: string[];
  state: number;
  store_url: string | null;
  force_update: boolean;
  min_supported_version: string | null;
  created_at: Date;
  updated_at: Date;
  file_name: string | null;
  file_size: number | null;
  file_sha256: string | null;
  file_crc32: string | null;
}

export const VERSION_SELECT = sql.raw(`v.id, v.tenant_id, v.type, v.version_code, v.version_name, v.notes, v.download_url,
  v.file_id, v.phase_type, v.upgradeable_from, v.state, v.store_url, v.force_update, v.min_supported_version,
  v.created_at, v.updated_at,
  f.name AS file_name, f.size AS file_size, f.sha256 AS file_sha256, f.crc32 AS file_crc32`);
export const VERSION_FROM = sql.raw("firmware_version v LEFT JOIN stored_file f ON f.id = v.file_id");

export function toVersion(r: VersionRow): FirmwareVersion {
  return {
    id: r.id,
    type: r.type,
    versionCode: r.version_code,
    versionName: r.version_name,
    notes: r.notes ?? {},
    downloadUrl: r.download_url,
    package:
      r.file_id === null
        ? null
        : {
            fileId: r.file_id,
            name: r.file_name ?? "",
            size: r.file_size ?? 0,
            sha256: r.file_sha256 ?? "",
            crc32: r.file_crc32 ?? "",
          },
    phaseType: r.phase_type,
    upgradeableFrom: r.upgradeable_from ?? [],
    state: r.state,
    storeUrl: r.store_url,
    forceUpdate: r.force_update,
    minSupportedVersion: r.min_supported_version,
    createTime: r.created_at.toISOString(),
    updateTime: r.updated_at.toISOString(),
  };
}

/** A live (not deleted) version of the tenant, or undefined. */
export function findVersion(db: Queryable, tenantId: number, id: number, extra: Sql = sql.raw("TRUE")) {
  return first<VersionRow>(
    db,
    sql`SELECT ${VERSION_SELECT} FROM ${VERSION_FROM}
         WHERE v.id = ${id} AND v.tenant_id = ${tenantId} AND v.deleted_at IS NULL AND ${extra}`,
  );
}
