import { randomBytes } from "node:crypto";
import { Jimp } from "jimp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES } from "../../src/files/database-store.ts";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { MOSQUITTO } from "../helpers/mosquitto.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { sharedBroker } from "../helpers/shared-broker.ts";
import { signIn } from "../helpers/test-app.ts";
import { freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";
import { addFirmware, apiAs } from "../ota/ota-world.ts";

type Media = { url: string; thumbnailUrl: string | null };

/**
 * Two consoles on one PostgreSQL, each with a DATA_DIR of its own (as two processes on two
 * machines would have) and a broker they share, neither told where to keep files: what one takes
 * in, the other serves.
 */
describe.skipIf(TEST_DRIVER !== "postgres" || !MOSQUITTO)("uploaded files across two consoles on one database", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let first: Runtime;
  let second: Runtime;
  let token = "";
  let broker: Awaited<ReturnType<typeof sharedBroker>>;
  beforeAll(async () => {
    database = await freshDatabaseUrl();
    broker = await sharedBroker("files");
    const env = { DATABASE_URL: (database as NonNullable<typeof database>).url };
    first = await startTestRuntime({ ...env, ...broker.env() });
    second = await startTestRuntime({ ...env, ...broker.env() });
    token = await signIn(first.app);
  });
  afterAll(async () => {
    await first?.close().catch(() => {});
    await second?.close().catch(() => {});
    await database?.drop();
    await broker?.stop();
  });

  it("a device downloads through one console the package uploaded through the other", { timeout: 30_000 }, async () => {
    const bytes = randomBytes(2 * CHUNK_BYTES + 777);
    const { versionId, file } = await addFirmware(
      apiAs(
        () => first.app,
        () => token,
      ),
      { versionCode: "2.00", bytes },
    );
    // The device is in the middle of its upgrade to that version (as the OTA engine orders it).
    const device = await registerDevice(first.db, { sn: uniqueSerial("FILES"), phaseType: 2 });
    const upgrade = await first.db.query<{ id: number }>(
      `INSERT INTO device_upgrade (tenant_id, device_id, version_id, firmware_type, version_code, status, request_id,
                                   attempts, sent_at, deadline_at)
       VALUES (1, $1, $2, 3, '2.00', 2, 7, 1, now(), now() + interval '1 hour') RETURNING id`,
      [device.id, versionId],
    );
    const authorization = `Basic ${Buffer.from(`${device.sn}:${device.secret}`).toString("base64")}`;
    const answer = await fetch(`${second.url}ota/package/${file.fileId}`, { headers: { authorization } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-length")).toBe(String(bytes.length));
    const received = Buffer.from(await answer.arrayBuffer());
    expect(Buffer.compare(received, bytes)).toBe(0);
    // The upgrade's record shows the whole package sent.
    await expect
      .poll(
        async () =>
          (await first.db.query<{ n: number }>("SELECT bytes_sent AS n FROM device_upgrade WHERE id = $1", [upgrade.rows[0]?.id]))
            .rows[0]?.n,
        { timeout: 5000 },
      )
      .toBe(bytes.length);
    // Neither console wrote the package to its own folder: both found it in the database.
    const stored = await second.db.query<{ size: number }>("SELECT size FROM file_blob WHERE sha256 = $1", [file.sha256]);
    expect(stored.rows).toEqual([{ size: bytes.length }]);
  });

  it("shows through one console a picture, and its thumbnail, uploaded through the other", { timeout: 60_000 }, async () => {
    // Noise does not compress: a picture of several chunks.
    const picture = new Jimp({ width: 900, height: 700 });
    picture.bitmap.data = randomBytes(900 * 700 * 4);
    const bytes = Buffer.from(await picture.getBuffer("image/png"));
    expect(bytes.length).toBeGreaterThan(2 * CHUNK_BYTES);
    const staff = apiCaller(
      () => first.app,
      () => token,
    );
    const uploaded = await staff<Media>("POST", "/admin/media/upload?fileName=noise.png&kind=image", bytes, {
      headers: { "content-type": "application/octet-stream" },
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const shown = await fetch(`${second.url}${uploaded.body.data.url.slice(1)}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(Buffer.compare(Buffer.from(await shown.arrayBuffer()), bytes)).toBe(0);
    const thumb = await fetch(`${second.url}${(uploaded.body.data.thumbnailUrl as string).slice(1)}`);
    expect(thumb.status).toBe(200);
    const small = await Jimp.read(Buffer.from(await thumb.arrayBuffer()));
    expect([small.width, small.height]).toEqual([320, 249]);
  });
});
