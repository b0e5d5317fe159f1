import { REGION_SEED, type RegionSeed } from "@ess/domain";
import type { Queryable } from "../db/db.ts";

/**
 * The address tree of the domain package, seeded into a tenant: each country once with its
 * regions (`seed_applied`), so what an administrator edited or deleted stays so, while a country a
 * newer version adds appears.
 */
export async function seedRegions(tx: Queryable, tenantId: number) {
  for (const [index, country] of REGION_SEED.entries()) {
    const { rowCount } = await tx.query(
      "INSERT INTO seed_applied (tenant_id, item) VALUES ($1, $2) ON CONFLICT (tenant_id, item) DO NOTHING",
      [tenantId, `region:${country.code}`],
    );
    if (rowCount === 0) continue;
    await insert(tx, tenantId, country, null, 0, index + 1);
  }
}

async function insert(tx: Queryable, tenantId: number, node: RegionSeed, parentId: number | null, grade: number, sort: number) {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO region (tenant_id, parent_id, grade, code, name, sort) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (tenant_id, lower(code)) DO NOTHING RETURNING id`,
    [tenantId, parentId, grade, node.code, JSON.stringify(node.name), sort],
  );
  const id = rows[0]?.id;
  if (id === undefined) return;
  for (const [index, child] of (node.children ?? []).entries()) await insert(tx, tenantId, child, id, grade + 1, index + 1);
}
