import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { migrate, readMigrations } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.driver.ts";
import { createTranslator } from "../../src/i18n/translator.ts";
import { seedFoundation } from "../../src/seed/foundation.seed.ts";
import { seedIdentity } from "../../src/seed/identity.seed.ts";

/** An installation made before the identity migrations, upgraded in place. */
let db: Db;
beforeAll(async () => {
  db = await openPglite(undefined);
  const all = readMigrations();
  await migrate(
    db,
    all.filter((m) => m.version <= "0002"),
  );
  await seedFoundation(db, "Admin12345");
  await db.query("INSERT INTO device (tenant_id, sn) VALUES (1, 'OLD-1')");
  await migrate(db, all);
  await seedIdentity(db, 1, await createTranslator());
});
afterAll(() => db.close());

describe("upgrading an existing installation", () => {
  it("gives the tenant its manufacturer organisation and puts the administrator in it", async () => {
    const root = (await db.query<{ id: number; path: string }>("SELECT id, path FROM organisation WHERE kind = 'manufacturer'"))
      .rows;
    expect(root).toHaveLength(1);
    expect(root[0]?.path).toBe(`/${root[0]?.id}/`);
    const admin = await db.query("SELECT org_id, failed_logins, must_change_password FROM sys_user WHERE username = 'admin'");
    expect(admin.rows[0]).toEqual({ org_id: root[0]?.id, failed_logins: 0, must_change_password: false });
  });

  it("keeps existing devices, unassigned until device work binds them", async () => {
    const { rows } = await db.query("SELECT sn, org_id, installer_org_id, owner_user_id FROM device");
    expect(rows).toEqual([{ sn: "OLD-1", org_id: null, installer_org_id: null, owner_user_id: null }]);
  });

  it("seeds the default roles and menus once, however often it starts", async () => {
    const count = async () =>
      (await db.query<{ n: number }>("SELECT (SELECT count(*) FROM sys_role) + (SELECT count(*) FROM sys_menu) AS n")).rows[0]?.n;
    const before = await count();
    await seedIdentity(db, 1, await createTranslator());
    expect(await count()).toBe(before);
    expect(before).toBeGreaterThan(20);
  });
});
