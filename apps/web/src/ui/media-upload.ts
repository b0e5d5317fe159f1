import type { MediaRecord } from "@ess/contracts";
import type { MediaKind } from "@ess/domain";
import { API } from "../api/api.ts";
import { ApiError, uploadFile } from "../api/client.ts";

/**
 * Sends a picture or an attachment to the media store (the request body is the file): the server
 * sniffs its type from the bytes, limits its size and answers the stored medium (its links, and a
 * thumbnail for a picture). A refusal is an ApiError whose first field message names the file.
 */
export function uploadMedia(file: File, kind: MediaKind, own = false): Promise<MediaRecord> {
  // `own`: a picture of the caller's own (avatar, a message cover), which any signed-in user may upload.
  const target = own
    ? `${API.media.appUpload.path}?fileName=${encodeURIComponent(file.name)}`
    : `${API.media.upload.path}?fileName=${encodeURIComponent(file.name)}&kind=${kind}`;
  return uploadFile<MediaRecord>(target, file);
}

/** What to show of a failed upload: the server's field message (naming the file) or its message. */
export const uploadProblem = (error: unknown) =>
  error instanceof ApiError ? (error.fields[0]?.message ?? error.message) : (error as Error).message;

/** File choosers' accept lists per kind (the server decides from the bytes anyway). */
export const ACCEPT: Record<MediaKind, string> = {
  image: "image/png,image/jpeg,image/webp,image/gif",
  attachment: ".pdf,.mp4,.docx,.xlsx,.pptx",
};

/** A stored picture known only by its id and link (a record's cover or avatar), for an upload input's first view. */
export const knownPicture = (id: number | null, url: string | null): MediaRecord | null =>
  id !== null && url !== null
    ? { id, kind: "image", name: "", contentType: "", size: 0, width: null, height: null, url, thumbnailUrl: null }
    : null;
