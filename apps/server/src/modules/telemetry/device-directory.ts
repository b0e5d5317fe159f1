import type { Db } from "../../db/db.ts";

/** What ingest needs to know about a device, by serial number. */
export interface DeviceRef {
  id: number;
  sn: string;
  tenantId: number;
  /** IANA time zone of the site; UTC until one is set. */
  timeZone: string;
  phaseType: 1 | 2 | null;
}

/**
 * Serial number → device, cached: ingest resolves every frame's device and must not ask the
 * database each time. Unknown serial numbers are remembered too (briefly), so a stream from an
 * unregistered device costs one query per interval rather than per frame. Known devices are kept
 * about 5 minutes: with 100,000 devices a shorter life (it was a minute) made these lookups one of
 * ingest's larger database costs. A change of what is kept here (time zone, phase type, tenant,
 * serial number, removal) is announced by the database (migration 0280) and dropped through `forget`
 * in every process at once; the entry's life bounds it should an announcement be missed.
 */
export function createDeviceDirectory(db: Db, options: { ttlMs?: number } = {}) {
  const ttl = options.ttlMs ?? 300_000;
  const cache = new Map<string, { ref: DeviceRef | null; until: number }>();

  return {
    async resolve(sns: Iterable<string>): Promise<Map<string, DeviceRef>> {
      const now = Date.now();
      const out = new Map<string, DeviceRef>();
      const missing = new Set<string>();
      for (const sn of sns) {
        const hit = cache.get(sn);
        if (hit && hit.until > now) {
          if (hit.ref) out.set(sn, hit.ref);
        } else missing.add(sn);
      }
      if (missing.size > 0) {
        const { rows } = await db.query<{
          id: number;
          sn: string;
          tenant_id: number;
          time_zone: string | null;
          phase_type: 1 | 2 | null;
        }>(
          // A join with the list rather than `sn = ANY(list)`: the trigram index on sn (migration
          // 0080) also answers equality, and the planner took it for a list of 2,000 serial
          // numbers — seconds per lookup, long enough for the broker to drop queued readings.
          `SELECT d.id, d.sn, d.tenant_id, d.time_zone, d.phase_type
             FROM unnest($1::text[]) AS s(sn) JOIN device d ON d.sn = s.sn AND d.deleted_at IS NULL`,
          [[...missing]],
        );
        const found = new Map(rows.map((r) => [r.sn, r]));
        for (const sn of missing) {
          const r = found.get(sn);
          const ref = r ? { id: r.id, sn, tenantId: r.tenant_id, timeZone: r.time_zone ?? "UTC", phaseType: r.phase_type } : null;
          // Spread over ±25 % of the interval: a fleet that came online together would otherwise be
          // looked up again all at once, in batches held up behind the lookup.
          const spread = 0.75 + Math.random() * 0.5;
          cache.set(sn, { ref, until: now + (ref ? ttl * spread : Math.min(ttl, 10_000)) });
          if (ref) out.set(sn, ref);
        }
      }
      return out;
    },
    /** Drops a serial number's entry: the next frame looks it up again. */
    forget(sn: string) {
      cache.delete(sn);
    },
    clear() {
      cache.clear();
    },
  };
}

/** The channel on which the database announces a changed device's (former) serial number. */
export const DEVICE_CHANGED_CHANNEL = "ess_device_changed";

export type DeviceDirectory = ReturnType<typeof createDeviceDirectory>;
