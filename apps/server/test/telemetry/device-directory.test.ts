import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createDeviceDirectory } from "../../src/modules/telemetry/device-directory.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

const COUNT = 2000;
const serials = Array.from({ length: COUNT }, (_, i) => `DIRLOOKUP${String(i).padStart(5, "0")}`);

describe(`the device directory on a batch of serial numbers (${TEST_DRIVER})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    await db.query("INSERT INTO device (tenant_id, sn, name) SELECT 1, sn, sn FROM unnest($1::text[]) AS sn", [serials]);
  });
  afterAll(() => db.close());

  it("finds every device of a batch", async () => {
    const found = await createDeviceDirectory(db).resolve([...serials, "NOSUCHDEVICE"]);
    expect(found.size).toBe(COUNT);
    expect(found.get(serials[7] as string)?.sn).toBe(serials[7]);
  });
});

describe(`a console's device directory after an edit (${TEST_DRIVER})`, () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime?.close());

  it("uses a device's new time zone at once, not after the entry's five minutes", async () => {
    const device = await registerDevice(runtime.db, { sn: uniqueSerial("DIRTZ"), timeZone: "Europe/Rome" });
    expect((await runtime.telemetry.directory.resolve([device.sn])).get(device.sn)?.timeZone).toBe("Europe/Rome");
    await runtime.db.query("UPDATE device SET time_zone = 'America/Denver' WHERE id = $1", [device.id]);
    await expect
      .poll(async () => (await runtime.telemetry.directory.resolve([device.sn])).get(device.sn)?.timeZone, { timeout: 3000 })
      .toBe("America/Denver");
  });
});
