import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { Jimp } from "jimp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import type { FileStore } from "../../src/files/file-store.ts";
import { openFileStore } from "../../src/files/open-file-store.ts";
import { createS3Store, FileStoreUnreachableError, type S3StoreOptions } from "../../src/files/s3-store.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { S3_KEYS, startTestS3, type TestS3 } from "../helpers/s3-server.ts";
import { freePort, tempDataDir } from "../helpers/server-process.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/** The S3 file store against an S3 server on loopback (test/helpers/s3-server.ts). */

const BUCKET = "ess-files";
const unused = { query: () => Promise.reject(new Error("the S3 store uses no database")) } as never;
const silent = { info() {}, warn() {} };

describe("the S3 file store", () => {
  let s3: TestS3;
  const stores: FileStore[] = [];
  const open = async (extra: Partial<S3StoreOptions> = {}) => {
    const store = await createS3Store({
      bucket: BUCKET,
      endpoint: s3.endpoint,
      region: "us-east-1",
      pathStyle: true,
      credentials: S3_KEYS,
      ...extra,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    s3 = await startTestS3([BUCKET]);
  });
  afterAll(async () => {
    for (const store of stores) store.close?.();
    await s3?.close();
  });

  it("gives back a file of several megabytes byte for byte, stored once under its digest and prefix", async () => {
    const store = await open({ prefix: "ess/files/" });
    const bytes = randomBytes(5 * 1024 * 1024 + 321);
    const stored = await store.put(bytes);
    expect(stored.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(stored.size).toBe(bytes.length);
    expect(s3.puts).toEqual([`ess/files/${stored.sha256}`]);
    const { stream, size } = await store.open(stored.sha256);
    expect(size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(stream), bytes)).toBe(0);
    // The same bytes again: nothing written.
    expect(await store.put(bytes)).toEqual(stored);
    expect(s3.puts).toHaveLength(1);
    expect(await store.has(stored.sha256)).toBe(true);
  });

  it("serves to one console process what another stored", async () => {
    const [a, b] = [await open(), await open()];
    const stored = await a.put(Buffer.from("a package taken in by the first process"));
    expect((await buffer((await b.open(stored.sha256)).stream)).toString()).toBe("a package taken in by the first process");
  });

  it("refuses an unknown digest and a name that is not one", async () => {
    const store = await open();
    const absent = createHash("sha256").update("never uploaded").digest("hex");
    expect(await store.has(absent)).toBe(false);
    await expect(store.open(absent)).rejects.toThrow(/no stored file/);
    await expect(store.open("../../etc/passwd")).rejects.toThrow(/not a SHA-256 digest/);
  });

  it("refuses to start with a wrong secret, a missing bucket or an endpoint nobody answers, naming the bucket", async () => {
    await expect(open({ credentials: { ...S3_KEYS, secretAccessKey: "wrong" } })).rejects.toThrow(
      new FileStoreUnreachableError(
        `Cannot reach the file store, bucket "${BUCKET}" at ${s3.endpoint}: refused (HTTP 403): the credentials are wrong or may not use this bucket. Check ESS_S3_ENDPOINT, ESS_S3_BUCKET and the credentials.`,
      ),
    );
    await expect(open({ bucket: "no-such-bucket" })).rejects.toThrow(/bucket "no-such-bucket" .*: no such bucket \(HTTP 404\)/);
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(open({ endpoint: closed, connectTimeoutMs: 1000 })).rejects.toThrow(
      new RegExp(`bucket "${BUCKET}" at ${closed}: ECONNREFUSED`),
    );
  });

  it("is chosen by ESS_FILE_STORE=s3 and takes in the files of DATA_DIR/files", async () => {
    const dataDir = tempDataDir("ess-s3-import-");
    mkdirSync(join(dataDir, "files"));
    const earlier = Buffer.from("a package uploaded while the console kept its files in a folder");
    const name = createHash("sha256").update(earlier).digest("hex");
    writeFileSync(join(dataDir, "files", name), earlier);
    const config = loadConfig({
      DATA_DIR: dataDir,
      ESS_FILE_STORE: "s3",
      ESS_S3_BUCKET: BUCKET,
      ESS_S3_ENDPOINT: s3.endpoint,
      ESS_S3_ACCESS_KEY_ID: S3_KEYS.accessKeyId,
      ESS_S3_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey,
    });
    const store = await openFileStore(config, unused, silent);
    stores.push(store);
    expect(store.kind).toBe("s3");
    expect((await buffer((await store.open(name)).stream)).equals(earlier)).toBe(true);
  });

  describe("behind the console's routes", () => {
    let t: TestApp;
    let token = "";
    const staff = apiCaller(
      () => t.app,
      () => token,
    );
    beforeAll(async () => {
      const store = await open();
      t = await createTestApp({ files: () => store });
      token = await signIn(t.app);
    });
    afterAll(() => t?.close());

    it("serves an uploaded picture from the bucket byte for byte", async () => {
      const bytes = Buffer.from(await new Jimp({ width: 64, height: 48, color: 0x3366aaff }).getBuffer("image/png"));
      const stored = await staff<{ url: string }>("POST", "/admin/media/upload?fileName=cover.png&kind=image", bytes, {
        headers: { "content-type": "application/octet-stream" },
      });
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(s3.puts).toContain(createHash("sha256").update(bytes).digest("hex"));
      const file = await t.app.inject({ method: "GET", url: stored.body.data.url });
      expect(file.statusCode).toBe(200);
      expect(Buffer.compare(file.rawPayload, bytes)).toBe(0);
    });
  });
});
