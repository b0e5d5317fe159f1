import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createDeviceDirectory } from "../../src/modules/telemetry/device-directory.ts";
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
