import type { Db } from "../../src/db/db.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPostgres } from "../../src/db/postgres.driver.ts";
import { createTestDb, freshDatabaseUrl } from "./test-db.ts";

/**
 * One fresh database as `count` console processes see it: on PostgreSQL a connection pool each, as
 * separate processes have; on PGlite (one process only) the one database, which holds the leases
 * all the same. The default tenant exists.
 */
export async function openProcessPools(count: number): Promise<{ pools: Db[]; close(): Promise<void> }> {
  const fresh = await freshDatabaseUrl();
  let pools: Db[];
  let close: () => Promise<void>;
  if (!fresh) {
    const db = await createTestDb();
    pools = Array.from({ length: count }, () => db);
    close = () => db.close();
  } else {
    pools = await Promise.all(
      Array.from({ length: count }, () => openPostgres({ url: fresh.url, poolSize: 3, connectTimeoutMs: 5000 })),
    );
    await migrate(pools[0] as Db);
    close = async () => {
      await Promise.all(pools.map((p) => p.close()));
      await fresh.drop();
    };
  }
  await (pools[0] as Db).query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  return { pools, close };
}
