import { pipeline } from "node:stream";
import { API } from "@ess/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Db } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import type { FileStore } from "../../files/file-store.ts";
import { notFound } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { type MediaRow, storeMedia } from "./media.service.ts";

/** `Content-Disposition` for a download: an ASCII fallback and the real name, RFC 5987-encoded. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The media store: uploads (type sniffed from the bytes, size per kind, thumbnails of pictures)
 * and the files. Who may read: anyone holding a medium's link — a 128-bit random key, given to
 * staff who uploaded or edit the content and, through the app API, to signed-in users reading
 * published content — so pictures show in plain <img> elements of the console and the app.
 */
export function registerMediaRoutes(app: FastifyInstance, deps: { db: Db; files: FileStore }) {
  const { db, files } = deps;
  // The body of an upload is the file; the octet-stream parser registered for firmware packages
  // (64 MB, the upload time bound) reads it, and the service applies each kind's own limit.

  bindRoute(app, API.media.upload, async ({ request, input, auth }) => {
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return storeMedia(db, files, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      fileName: input.query.fileName,
      kind: input.query.kind,
      bytes,
    });
  });

  bindRoute(app, API.media.appUpload, async ({ request, input, auth }) => {
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return storeMedia(db, files, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      fileName: input.query.fileName,
      kind: "image",
      bytes,
    });
  });

  const serve = async (reply: FastifyReply, key: string, thumbnail: boolean) => {
    const row = await first<MediaRow>(
      db,
      sql`SELECT id, key, kind, sha256, content_type, name, size, width, height, thumb_sha256, thumb_type FROM media WHERE key = ${key}`,
    );
    if (!row || (thumbnail && row.kind !== "image")) throw notFound();
    const sha = thumbnail && row.thumb_sha256 ? row.thumb_sha256 : row.sha256;
    const type = thumbnail && row.thumb_sha256 ? (row.thumb_type as string) : row.content_type;
    const { stream, size } = await files.open(sha).catch(() => {
      throw notFound();
    });
    reply.hijack();
    reply.raw.writeHead(200, {
      "content-type": type,
      "content-length": String(size),
      "content-disposition": row.kind === "image" ? "inline" : attachmentDisposition(row.name),
      "x-content-type-options": "nosniff",
      // The bytes behind a key never change.
      "cache-control": "private, max-age=31536000, immutable",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    // A store that fails halfway (the database gone) cuts the answer short instead of leaving it
    // open; a client that leaves stops the reading. Neither is the server's error to report.
    pipeline(stream, reply.raw, () => {});
    return null;
  };

  bindRoute(app, API.media.file, async ({ reply, input }) => serve(reply, input.params.key, false));
  bindRoute(app, API.media.thumbnail, async ({ reply, input }) => serve(reply, input.params.key, true));
}
