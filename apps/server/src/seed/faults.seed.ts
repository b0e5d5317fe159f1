import { FAULT_SEED, type FaultSystemType } from "@ess/domain";
import type { Queryable } from "../db/db.ts";

/**
 * The fault catalogue of the domain package, seeded into a tenant: each code and system type once
 * (`seed_applied`), so an administrator's edits and deletions stay while codes a newer version adds
 * appear.
 */
export async function seedFaults(tx: Queryable, tenantId: number) {
  for (const fault of FAULT_SEED) {
    for (const type of Object.keys(fault.triggers).map(Number) as FaultSystemType[]) {
      const { rowCount } = await tx.query(
        "INSERT INTO seed_applied (tenant_id, item) VALUES ($1, $2) ON CONFLICT (tenant_id, item) DO NOTHING",
        [tenantId, `fault:${fault.code}:${type}`],
      );
      if (rowCount === 0) continue;
      await tx.query(
        `INSERT INTO fault_code (tenant_id, code, level, system_type, category, texts, display)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, true) ON CONFLICT (tenant_id, code, system_type) DO NOTHING`,
        [tenantId, fault.code, fault.level, type, fault.category, JSON.stringify(fault.texts)],
      );
    }
  }
}
