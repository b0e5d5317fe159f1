import { type FaultLevel, type FaultSystemType, type FaultText, LOCALES, type Locale } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import type { Translate } from "../../i18n/translator.ts";

export interface CachedFault {
  level: FaultLevel;
  display: boolean;
  info: Record<string, string>;
}

interface TenantFaults {
  faults: Map<string, CachedFault>;
  /** Alarm control display flags by code. */
  control: Map<number, boolean>;
  loadedAt: number;
}

/** The texts of a code the fault catalogue lacks, in one language: an unknown fault, with its code. */
export function unknownFaultText(t: Translate, code: number): FaultText {
  return {
    info: t("alarms:unknown.info", { code }),
    causes: t("alarms:unknown.causes", { code }),
    remedy: t("alarms:unknown.remedy", { code }),
  };
}

/**
 * The fault catalogue and alarm control of each tenant, as detection and notification need them
 * (level, whether shown and pushed, information text). Reloaded after any change in this process
 * and at most every `ttlMs` otherwise (changes made by another process).
 */
export function createFaultCache(db: Queryable, translator: (locale: Locale) => Translate, ttlMs = 30_000) {
  const tenants = new Map<number, Promise<TenantFaults>>();

  async function loadTenant(tenantId: number): Promise<TenantFaults> {
    const [faults, control] = await Promise.all([
      db.query<{
        code: number;
        system_type: number;
        level: FaultLevel;
        display: boolean;
        texts: Record<string, { info: string }>;
      }>("SELECT code, system_type, level, display, texts FROM fault_code WHERE tenant_id = $1", [tenantId]),
      db.query<{ code: number; display: boolean }>("SELECT code, display FROM alarm_control WHERE tenant_id = $1", [tenantId]),
    ]);
    return {
      faults: new Map(
        faults.rows.map((r) => [
          `${r.code}:${r.system_type}`,
          {
            level: r.level,
            display: r.display,
            info: Object.fromEntries(Object.entries(r.texts).map(([locale, t]) => [locale, t.info])),
          },
        ]),
      ),
      control: new Map(control.rows.map((r) => [r.code, r.display])),
      loadedAt: Date.now(),
    };
  }

  async function tenant(tenantId: number): Promise<TenantFaults> {
    let p = tenants.get(tenantId);
    if (p) {
      const t = await p;
      if (Date.now() - t.loadedAt < ttlMs) return t;
    }
    p = loadTenant(tenantId);
    tenants.set(tenantId, p);
    p.catch(() => tenants.delete(tenantId));
    return p;
  }

  return {
    async fault(tenantId: number, code: number, systemType: FaultSystemType): Promise<CachedFault | undefined> {
      return (await tenant(tenantId)).faults.get(`${code}:${systemType}`);
    },
    /** Whether alarms of a code are shown and pushed: its alarm control entry decides, else its catalogue entry. */
    /** The information text per language: the catalogue's, or "unknown fault" for a code it lacks. */
    async info(tenantId: number, code: number, systemType: FaultSystemType): Promise<Record<string, string>> {
      const known = (await tenant(tenantId)).faults.get(`${code}:${systemType}`);
      return known?.info ?? Object.fromEntries(LOCALES.map((l) => [l, unknownFaultText(translator(l), code).info]));
    },
    async shown(tenantId: number, code: number, systemType: FaultSystemType): Promise<boolean> {
      const t = await tenant(tenantId);
      const control = t.control.get(code);
      if (control !== undefined) return control;
      return t.faults.get(`${code}:${systemType}`)?.display ?? true;
    },
    invalidate(tenantId?: number) {
      if (tenantId === undefined) tenants.clear();
      else tenants.delete(tenantId);
    },
  };
}

export type FaultCatalogueCache = ReturnType<typeof createFaultCache>;
