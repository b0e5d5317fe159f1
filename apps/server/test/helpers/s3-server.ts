import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";
import { tempDataDir } from "./server-process.ts";

/**
 * An S3 server on loopback for the file store's tests: s3rver speaks the S3 REST protocol and keeps
 * objects on disk, but checks only the access key of a Signature V4 request, not its signature. In
 * front of it each request's signature is worked out again with the one secret (AWS's published
 * Signature V4 algorithm) and a mismatch refused as S3 refuses it, so a console with a wrong
 * secret is turned away here as it would be by a real service.
 */

export const S3_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3 {
  endpoint: string;
  /** Keys of the objects written (ObjectCreated events), in order. */
  puts: string[];
  close(): Promise<void>;
}

const sha256 = (data: string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature a request signed with `secret` carries, or null when it is not a header-signed V4 request. */
function expectedSignature(req: IncomingMessage, secret: string): { given: string; expected: string } | null {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? "",
    );
  if (!auth) return null;
  const [, , day, region, service, signedHeaders, given] = auth as unknown as string[];
  const url = new URL(req.url ?? "/", "http://s3");
  const query = [...url.searchParams]
    .map(([k, v]) => ({ k: rfc3986(k), v: rfc3986(v) }))
    // By name, then value, comparing code units (as the algorithm asks, not by locale).
    .sort((a, b) => (a.k === b.k ? (a.v < b.v ? -1 : 1) : a.k < b.k ? -1 : 1))
    .map(({ k, v }) => `${k}=${v}`)
    .join("&");
  const names = (signedHeaders as string).split(";");
  const headers = names
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, req.headers["x-amz-content-sha256"]].join("\n");
  const date = String(req.headers["x-amz-date"]);
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", date, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day as string), region as string), service as string), "aws4_request");
  return { given: given as string, expected: createHmac("sha256", key).update(toSign).digest("hex") };
}

function refuse(res: ServerResponse, code: string, message: string) {
  res.writeHead(403, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

export async function startTestS3(buckets: string[]): Promise<TestS3> {
  const s3 = new S3rver({
    silent: true,
    directory: tempDataDir("ess-s3-"),
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  await s3.configureBuckets();
  const puts: string[] = [];
  // s3rver is a Koa application (an EventEmitter), which its typings leave out.
  (s3 as unknown as NodeJS.EventEmitter).on(
    "event",
    (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
      for (const record of event.Records) if (record.eventName.startsWith("ObjectCreated")) puts.push(record.s3.object.key);
    },
  );
  const handle = s3.callback();
  const server: Server = createServer((req, res) => {
    const signature = expectedSignature(req, S3_KEYS.secretAccessKey);
    if (!signature) return refuse(res, "AccessDenied", "Requests must be signed with Signature V4 in the Authorization header.");
    if (signature.given !== signature.expected)
      return refuse(
        res,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
      );
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    puts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
