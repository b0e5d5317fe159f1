import { Jimp } from "jimp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseStore } from "../../src/files/database-store.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";
import { TEST_DRIVER } from "../helpers/test-db.ts";

type Media = { url: string; thumbnailUrl: string | null; width: number; height: number };

/** The media store's round trip with its bytes in the database (ESS_FILE_STORE=database). */
describe(`pictures kept in the database (${TEST_DRIVER})`, () => {
  let t: TestApp;
  let token = "";
  const staff = apiCaller(
    () => t.app,
    () => token,
  );
  beforeAll(async () => {
    t = await createTestApp({ files: createDatabaseStore });
    token = await signIn(t.app);
  });
  afterAll(() => t?.close());

  it("serves an uploaded picture byte for byte and its thumbnail, and nothing for an unknown key", async () => {
    const bytes = Buffer.from(await new Jimp({ width: 640, height: 480, color: 0x33aa66ff }).getBuffer("image/png"));
    const stored = await staff<Media>("POST", "/admin/media/upload?fileName=cover.png&kind=image", bytes, {
      headers: { "content-type": "application/octet-stream" },
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const file = await t.app.inject({ method: "GET", url: stored.body.data.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(file.rawPayload, bytes)).toBe(0);
    const thumb = await t.app.inject({ method: "GET", url: stored.body.data.thumbnailUrl as string });
    expect(thumb.statusCode).toBe(200);
    const small = await Jimp.read(thumb.rawPayload);
    expect([small.width, small.height]).toEqual([320, 240]);
    // The picture's bytes are in the database: uploaded again, they are stored once.
    const again = await staff<Media>("POST", "/admin/media/upload?fileName=copy.png&kind=image", bytes, {
      headers: { "content-type": "application/octet-stream" },
    });
    expect(again.body.data.url).not.toBe(stored.body.data.url);
    const blobs = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM file_blob");
    expect(blobs.rows[0]?.n).toBe(2);
    expect((await t.app.inject({ method: "GET", url: "/media/file/0123456789abcdef0123456789abcdef" })).statusCode).toBe(404);
  });
});
