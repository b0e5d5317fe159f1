import { randomBytes } from "node:crypto";
import { Worker } from "node:worker_threads";
import type { MediaRecord } from "@ess/contracts";
import { MEDIA_MAX_BYTES, MEDIA_PATH_PREFIX, MEDIA_TYPES, type MediaKind, THUMBNAIL_WIDTH } from "@ess/domain";
import { fileTypeFromBuffer } from "file-type";
import type { Queryable } from "../../db/db.ts";
import { first, run, sql } from "../../db/sql.ts";
import type { FileStore } from "../../files/file-store.ts";
import { ValidationError } from "../../http/errors.ts";
import { createWorkGate } from "../../http/work-gate.ts";
import { declaredSize } from "./image-header.ts";
import type { ThumbnailAnswer, ThumbnailJob } from "./thumbnail.worker.ts";

/** Pictures with more pixels than this are refused before decoding (about 160 MB as RGBA). */
export const MAX_PIXELS = 40_000_000;
const WORKER = new URL("./thumbnail.worker.ts", import.meta.url);
// One decoder thread at a time per core but one, refused (429) past a short queue.
const gate = createWorkGate({ concurrency: 1, queue: 20 });
const THUMB_TIMEOUT_MS = 20_000;

export const mediaUrl = (key: string) => `${MEDIA_PATH_PREFIX}${key}`;
export const thumbnailUrl = (key: string) => `/media/thumb/${key}`;

export interface MediaRow {
  id: number;
  key: string;
  kind: MediaKind;
  sha256: string;
  content_type: string;
  name: string;
  size: number;
  width: number | null;
  height: number | null;
  thumb_sha256: string | null;
  thumb_type: string | null;
}

export const toMedia = (r: MediaRow): MediaRecord => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  contentType: r.content_type,
  size: r.size,
  width: r.width,
  height: r.height,
  url: mediaUrl(r.key),
  thumbnailUrl: r.kind === "image" ? thumbnailUrl(r.key) : null,
});

export const MEDIA_COLUMNS = sql.raw(
  "m.id, m.key, m.kind, m.sha256, m.content_type, m.name, m.size, m.width, m.height, m.thumb_sha256, m.thumb_type",
);

function drawThumbnail(job: ThumbnailJob): Promise<ThumbnailAnswer> {
  return gate.run(
    () =>
      new Promise<ThumbnailAnswer>((resolve, reject) => {
        const worker = new Worker(WORKER, {
          workerData: job,
          transferList: [job.data.buffer as ArrayBuffer],
          resourceLimits: { maxOldGenerationSizeMb: 256 },
        });
        const timer = setTimeout(() => {
          void worker.terminate();
          reject(new Error(`thumbnail took longer than ${THUMB_TIMEOUT_MS} ms`));
        }, THUMB_TIMEOUT_MS);
        worker.once("message", (answer: ThumbnailAnswer) => {
          clearTimeout(timer);
          void worker.terminate();
          resolve(answer);
        });
        worker.once("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
        worker.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`thumbnail worker exited with ${code}`));
        });
      }),
  );
}

const refuse = (key: string, values: Record<string, string | number>) =>
  new ValidationError([{ field: "fileName", key, values: { field: "fileName", ...values }, label: "fields:fileName" }]);

/**
 * Checks an upload (size per kind, type sniffed from its bytes: a name or header saying "png" is
 * not believed), stores its bytes and, for a picture, its thumbnail, and records it.
 */
export async function storeMedia(
  db: Queryable,
  files: FileStore,
  upload: { tenantId: number; userId: number; fileName: string; kind: MediaKind; bytes: Buffer },
): Promise<MediaRecord> {
  const { kind, bytes, fileName: name } = upload;
  if (bytes.length === 0) throw refuse("content:fileEmpty", { name });
  const max = MEDIA_MAX_BYTES[kind];
  if (bytes.length > max) throw refuse("content:fileTooLarge", { name, max: Math.round(max / 1024 / 1024) });
  const sniffed = await fileTypeFromBuffer(bytes);
  const contentType = sniffed?.mime ?? "";
  if (!MEDIA_TYPES[kind].includes(contentType))
    throw refuse(kind === "image" ? "content:notAnImage" : "content:attachmentType", { name });

  let width: number | null = null;
  let height: number | null = null;
  let thumb: { sha256: string; type: string } | null = null;
  if (kind === "image") {
    const declared = declaredSize(bytes, contentType);
    if (!declared || declared.width < 1 || declared.height < 1) throw refuse("content:notAnImage", { name });
    if (declared.width * declared.height > MAX_PIXELS) throw refuse("content:imageTooManyPixels", { name });
    ({ width, height } = declared);
    if (contentType !== "image/webp") {
      const answer = await drawThumbnail({ data: new Uint8Array(bytes), contentType, width: THUMBNAIL_WIDTH });
      if ("refused" in answer) throw refuse("content:notAnImage", { name });
      ({ width, height } = answer);
      if (answer.thumb && answer.thumbType) {
        const stored = await files.put(answer.thumb);
        thumb = { sha256: stored.sha256, type: answer.thumbType };
      }
    }
  }
  const stored = await files.put(bytes);
  const row = await first<MediaRow>(
    db,
    sql`INSERT INTO media (tenant_id, key, kind, sha256, content_type, name, size, width, height, thumb_sha256, thumb_type, created_by)
        VALUES (${upload.tenantId}, ${randomBytes(16).toString("hex")}, ${kind}, ${stored.sha256}, ${contentType}, ${name},
                ${stored.size}, ${width}, ${height}, ${thumb?.sha256 ?? null}, ${thumb?.type ?? null}, ${upload.userId})
        RETURNING id, key, kind, sha256, content_type, name, size, width, height, thumb_sha256, thumb_type`,
  );
  return toMedia(row as MediaRow);
}

/** Media of the tenant by id (those not found are left out). */
export async function mediaByIds(db: Queryable, tenantId: number, ids: number[]): Promise<Map<number, MediaRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await run<MediaRow>(
    db,
    sql`SELECT ${MEDIA_COLUMNS} FROM media m WHERE m.tenant_id = ${tenantId} AND m.id = ANY(${ids}::bigint[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Pictures a record points at (a message's cover, a feedback item's pictures, an avatar): each
 * must be a picture of the tenant and, with `uploadedBy`, one that account uploaded itself (an
 * end user cannot show someone else's upload as their own). Refused at the field otherwise.
 */
export async function requirePictures(
  db: Queryable,
  tenantId: number,
  ids: readonly number[],
  rule: { field: string; label: string; uploadedBy?: number },
): Promise<void> {
  const { rows } = await run<{ id: number }>(
    db,
    sql`SELECT id FROM media WHERE tenant_id = ${tenantId} AND kind = 'image' AND id = ANY(${[...ids]}::bigint[])
        ${rule.uploadedBy === undefined ? sql`` : sql`AND created_by = ${rule.uploadedBy}`}`,
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new ValidationError([
      { field: rule.field, key: "content:pictureNotFound", values: { field: rule.field }, label: rule.label },
    ]);
}

/** The link of a stored medium by its key, or null. */
export const urlOfKey = (key: string | null) => (key ? mediaUrl(key) : null);
