import { pipeline } from "node:stream";
import { API } from "@ess/contracts";
import { isAppType, PACKAGE_MAX_BYTES, packageProblem } from "@ess/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, first, sql } from "../../db/sql.ts";
import type { FileStore } from "../../files/file-store.ts";
import { AppError, business, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { verifyDeviceSecret } from "../../mqtt/device-credentials.ts";
import { findVersion, toVersion, VERSION_FROM, VERSION_SELECT, type VersionRow } from "./firmware.repository.ts";

/** The app-only fields (store page, forced update, minimum supported version); firmware keeps none. */
const appFields = (b: { type: number; storeUrl: string | null; forceUpdate: boolean; minSupportedVersion: string | null }) =>
  isAppType(b.type)
    ? { storeUrl: b.storeUrl, forceUpdate: b.forceUpdate, minSupportedVersion: b.minSupportedVersion }
    : { storeUrl: null, forceUpdate: false, minSupportedVersion: null };

const fieldError = (field: string, key: string) => new ValidationError([{ field, key, values: { field } }]);
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

/** The serial number and secret of HTTP Basic credentials, or null. */
function basicCredentials(request: FastifyRequest): { sn: string; secret: string } | null {
  const header = request.headers.authorization ?? "";
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return null;
  const text = Buffer.from(m[1] as string, "base64").toString("utf8");
  const colon = text.indexOf(":");
  return colon > 0 ? { sn: text.slice(0, colon), secret: text.slice(colon + 1) } : null;
}

/**
 * Upgrade-info management: version records of apps and firmware, uploaded packages (size- and
 * type-checked, SHA-256 and CRC-32 computed, stored once in the file store), and the package
 * download that devices use while they upgrade (authenticated with their own secret).
 */
export function registerFirmwareRoutes(app: FastifyInstance, deps: { db: Db; files: FileStore }) {
  const { db, files } = deps;
  // The upload's body is the file itself; the whole app otherwise keeps its 1 MB body limit.
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer", bodyLimit: PACKAGE_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  bindRoute(app, API.firmware.page, async ({ input, auth }) => {
    const q = input.query;
    return fetchPage(
      db,
      {
        select: VERSION_SELECT,
        from: VERSION_FROM,
        where: sql.and([
          sql`v.tenant_id = ${auth.tenantId} AND v.deleted_at IS NULL`,
          q.appType !== undefined && sql`v.type = ${q.appType}`,
          q.state !== undefined && sql`v.state = ${q.state}`,
          q.versionCode !== undefined && sql`v.version_code ILIKE ${containsPattern(q.versionCode)}`,
        ]),
        order: orderBy(q, { id: "v.id", versionCode: "v.version_code", type: "v.type", createTime: "v.created_at" }, "v.id"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toVersion,
    );
  });

  bindRoute(app, API.firmware.info, async ({ input, auth }) => {
    const row = await findVersion(db, auth.tenantId, input.query.id);
    if (!row) throw notFound("firmware:versionNotFound");
    return toVersion(row);
  });

  async function checkFile(tenantId: number, fileId: number | null) {
    if (fileId === null) return;
    const file = await first(db, sql`SELECT id FROM stored_file WHERE id = ${fileId} AND tenant_id = ${tenantId}`);
    if (!file) throw fieldError("fileId", "firmware:packageRequired");
  }

  bindRoute(app, API.firmware.save, async ({ input, auth }) => {
    const b = input.body;
    await checkFile(auth.tenantId, b.fileId);
    try {
      const row = await first<{ id: number }>(
        db,
        sql`INSERT INTO firmware_version (tenant_id, type, version_code, version_name, notes, download_url, file_id,
                                          phase_type, upgradeable_from, state, store_url, force_update,
                                          min_supported_version, created_by)
            VALUES (${auth.tenantId}, ${b.type}, ${b.versionCode}, ${b.versionName}, ${JSON.stringify(b.notes)}::jsonb,
                    ${b.downloadUrl}, ${b.fileId}, ${b.phaseType}, ${b.upgradeableFrom}::text[], ${b.state},
                    ${appFields(b).storeUrl}, ${appFields(b).forceUpdate}, ${appFields(b).minSupportedVersion}, ${auth.userId})
            RETURNING id`,
      );
      return toVersion((await findVersion(db, auth.tenantId, row?.id as number)) as VersionRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldError("versionCode", "firmware:versionExists");
      throw error;
    }
  });

  bindRoute(app, API.firmware.edit, async ({ input, auth }) => {
    const b = input.body;
    const current = await findVersion(db, auth.tenantId, b.id);
    if (!current) throw notFound("firmware:versionNotFound");
    await checkFile(auth.tenantId, b.fileId);
    // Devices upgrading to it fetch its package (again, when they resume): it stays as ordered meanwhile.
    const changesWhatDevicesGet =
      b.fileId !== current.file_id || b.versionCode !== current.version_code || b.type !== current.type;
    if (changesWhatDevicesGet) {
      const open = await first(db, sql`SELECT 1 FROM device_upgrade WHERE version_id = ${b.id} AND status IN (0, 1, 2) LIMIT 1`);
      if (open) throw business("firmware:versionInUse");
    }
    try {
      await db.query(
        `UPDATE firmware_version SET type = $2, version_code = $3, version_name = $4, notes = $5::jsonb, download_url = $6,
                file_id = $7, phase_type = $8, upgradeable_from = $9::text[], state = $10, store_url = $12,
                force_update = $13, min_supported_version = $14, updated_at = now()
          WHERE id = $1 AND tenant_id = $11 AND deleted_at IS NULL`,
        [
          b.id,
          b.type,
          b.versionCode,
          b.versionName,
          JSON.stringify(b.notes),
          b.downloadUrl,
          b.fileId,
          b.phaseType,
          b.upgradeableFrom,
          b.state,
          auth.tenantId,
          appFields(b).storeUrl,
          appFields(b).forceUpdate,
          appFields(b).minSupportedVersion,
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldError("versionCode", "firmware:versionExists");
      throw error;
    }
    return toVersion((await findVersion(db, auth.tenantId, b.id)) as VersionRow);
  });

  bindRoute(app, API.firmware.del, async ({ input, auth }) => {
    const id = input.body.id;
    if (!(await findVersion(db, auth.tenantId, id))) throw notFound("firmware:versionNotFound");
    const open = await first(db, sql`SELECT 1 FROM device_upgrade WHERE version_id = ${id} AND status IN (0, 1, 2) LIMIT 1`);
    if (open) throw business("firmware:versionInUse");
    await db.query("UPDATE firmware_version SET deleted_at = now() WHERE id = $1 AND tenant_id = $2", [id, auth.tenantId]);
    return null;
  });

  bindRoute(app, API.firmware.upload, async ({ request, input, auth }) => {
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const problem = packageProblem(input.query.fileName, bytes);
    if (problem) throw fieldError(problem === "firmware:packageType" ? "fileName" : "file", problem);
    const stored = await files.put(bytes);
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO stored_file (tenant_id, name, size, sha256, crc32, created_by)
          VALUES (${auth.tenantId}, ${input.query.fileName}, ${stored.size}, ${stored.sha256}, ${stored.crc32}, ${auth.userId})
          RETURNING id`,
    );
    return { fileId: row?.id as number, name: input.query.fileName, ...stored };
  });

  bindRoute(app, API.firmware.download, async ({ request, reply, input }) => {
    const credentials = basicCredentials(request);
    if (!credentials || !(await verifyDeviceSecret(db, credentials.sn, credentials.secret))) {
      reply.header("www-authenticate", 'Basic realm="ess-ota"');
      throw new AppError("unauthorized");
    }
    // Only a device with an upgrade to this package under way gets it.
    const task = await first<{ id: number; sha256: string; name: string }>(
      db,
      sql`SELECT u.id, f.sha256, f.name FROM device_upgrade u
            JOIN device d ON d.id = u.device_id AND d.deleted_at IS NULL
            JOIN firmware_version v ON v.id = u.version_id
            JOIN stored_file f ON f.id = v.file_id
           WHERE d.sn = ${credentials.sn} AND f.id = ${input.params.fileId} AND u.status IN (0, 1, 2)
           ORDER BY u.id DESC LIMIT 1`,
    );
    if (!task) throw notFound("firmware:packageNotFound");
    const { stream, size } = await files.open(task.sha256).catch(() => {
      throw notFound("firmware:packageNotFound");
    });
    let sent = 0;
    stream.on("data", (chunk) => {
      sent += chunk.length;
    });
    const record = () =>
      void db
        .query("UPDATE device_upgrade SET bytes_sent = GREATEST(bytes_sent, $2), updated_at = now() WHERE id = $1", [
          task.id,
          sent,
        ])
        .catch((error) => request.log.warn({ err: error }, "could not record the bytes sent"));
    reply.hijack();
    reply.raw.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(size),
      "content-disposition": `attachment; filename="${encodeURIComponent(task.name)}"`,
    });
    // A store that fails halfway (the database gone) cuts the answer short instead of leaving it
    // open; a client that leaves stops the reading. Neither is the server's error to report.
    pipeline(stream, reply.raw, () => {});
    reply.raw.on("close", record);
    return null;
  });
}
