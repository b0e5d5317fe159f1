import type { Readable } from "node:stream";
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { digestsOf, type FileStore, isDigest } from "./file-store.ts";

export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every object's name (a digest), e.g. "ess/files/". */
  prefix?: string;
  /** An S3-compatible service's URL (MinIO, Ceph, a cloud's own); unset: AWS S3 of the region. */
  endpoint?: string;
  region: string;
  /** Bucket in the path rather than the host name, as most S3-compatible services expect. */
  pathStyle: boolean;
  /** Unset: the SDK's own chain (AWS_* variables, a shared profile, an instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** How long to wait for a connection, and for any one answer. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** The bucket cannot be reached or refuses the console's credentials: the start is refused with this line. */
export class FileStoreUnreachableError extends Error {
  override name = "FileStoreUnreachableError";
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NotFound" || error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404);

/** Why the bucket could not be used, in words: a HEAD's refusal has no body to name its cause. */
function reason(error: unknown): string {
  if (!(error instanceof S3ServiceException)) return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const status = error.$metadata.httpStatusCode;
  if (status === 403) return "refused (HTTP 403): the credentials are wrong or may not use this bucket";
  if (status === 404) return "no such bucket (HTTP 404)";
  if (status === 301) return "the bucket is in another region (HTTP 301): check ESS_S3_REGION";
  return `${error.name}${status ? ` (HTTP ${status})` : ""}`;
}

/**
 * Uploaded files in an S3-compatible bucket that every console process reaches, one object per
 * digest. Objects are written whole (a package is at most what an upload takes in memory) and read
 * as a stream, so a download holds no more of a file than the socket's buffers.
 *
 * Checksums are sent only where an operation requires them: the SDK's default (CRC32 on every
 * upload, verified on every download) is refused or mis-answered by several S3-compatible
 * services, and every reader of a package checks its SHA-256 anyway.
 */
export async function createS3Store(options: S3StoreOptions): Promise<FileStore> {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.pathStyle,
    credentials: options.credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
    requestHandler: { connectionTimeout: options.connectTimeoutMs ?? 5_000, requestTimeout: options.requestTimeoutMs ?? 60_000 },
  });
  const Bucket = options.bucket;
  const keyOf = (sha256: string) => {
    if (!isDigest(sha256)) throw new Error("not a SHA-256 digest");
    return `${options.prefix ?? ""}${sha256}`;
  };
  const where = `bucket "${Bucket}"${options.endpoint ? ` at ${options.endpoint}` : ` in ${options.region}`}`;

  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    client.destroy();
    throw new FileStoreUnreachableError(
      `Cannot reach the file store, ${where}: ${reason(error)}. Check ESS_S3_ENDPOINT, ESS_S3_BUCKET and the credentials.`,
    );
  }

  /** The stored object's size, or null when there is none. */
  async function sizeOf(sha256: string): Promise<number | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(sha256) }));
      return head.ContentLength ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    kind: "s3",
    async put(bytes) {
      const { sha256, crc32 } = await digestsOf(bytes);
      // Named by digest: an object of that name and length holds these bytes already.
      if ((await sizeOf(sha256)) !== bytes.length)
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: keyOf(sha256),
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: "application/octet-stream",
          }),
        );
      return { sha256, crc32, size: bytes.length };
    },
    async open(sha256) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(sha256) }));
        return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) throw new Error(`no stored file ${sha256}`);
        throw error;
      }
    },
    async has(sha256) {
      return (await sizeOf(sha256)) !== null;
    },
    close() {
      client.destroy();
    },
  };
}
