import { derivedMrid } from "@ess/domain/grid/hashed-identity.ts";
import type { MirrorMeterReading, MirrorUsagePoint, ReadingType } from "@ess/sep2";
import type { IntervalAverages } from "./device-facts.ts";
import { type GridContext, type Site, seconds } from "./grid-context.ts";
import { readList } from "./list-reader.ts";

/**
 * The site's metering mirror: one MirrorUsagePoint for the connection point (site) and one for the
 * DER, each with its reading streams, then averaged readings every postRate (CSIP-AUS: averages
 * over the interval, timestamped at its end, on minute boundaries). Var is the devices' reported
 * reactive power (key quantities grid_reactive_power, inverter_reactive_power), posted with the sign
 * the devices give it: site var > 0 drawn from the grid, DER var > 0 delivered by the inverter (see
 * KEY_QUANTITIES on what is assumed).
 */

/** UomType: 38 W, 63 var, 29 V, 72 Wh. */
const UOM = { W: 38, var: 63, V: 29, Wh: 72 } as const;
type Quantity = keyof typeof UOM;

/** roleFlags: site = mirror + premises aggregation point; DER = mirror + DER + submeter. */
const ROLE = { site: "03", der: "49" } as const;
type Role = keyof typeof ROLE;

const STREAMS: Record<Role, readonly Quantity[]> = { site: ["W", "var", "V"], der: ["W", "var", "Wh"] };

/** ReadingType for an averaged stream: kind 37 power (12 energy), data qualifier 2 average. */
function readingType(quantity: Quantity, intervalS: number): ReadingType {
  return {
    dataQualifier: quantity === "Wh" ? 0 : 2,
    flowDirection: 1,
    intervalLength: intervalS,
    kind: quantity === "Wh" ? 12 : 37,
    phase: 0,
    powerOfTenMultiplier: 0,
    uom: UOM[quantity],
  };
}

/** A site's mRIDs are hashes of its names: made once per site and kept, as every post needs them. */
const mrids = new WeakMap<Site, Map<string, string>>();
function mrid(ctx: GridContext, site: Site, ...parts: string[]): string {
  const key = parts.join("/");
  const known = mrids.get(site) ?? new Map<string, string>();
  mrids.set(site, known);
  const made = known.get(key) ?? derivedMrid([site.row.lfdi, ...parts], ctx.pen);
  known.set(key, made);
  return made;
}

function mirrorUsagePoint(ctx: GridContext, site: Site, role: Role, intervalS: number): MirrorUsagePoint {
  return {
    mRID: mrid(ctx, site, "mup", role),
    description: `${site.device.sn} ${role}`,
    roleFlags: ROLE[role],
    serviceCategoryKind: 0,
    status: 1,
    deviceLFDI: site.row.lfdi,
    MirrorMeterReading: STREAMS[role].map((q) => ({
      mRID: mrid(ctx, site, "mmr", role, q),
      description: `${role} ${q}`,
      ReadingType: readingType(q, intervalS),
    })),
  };
}

/**
 * Reads the MirrorUsagePointList (as the procedures expect, every postRate: the server may change
 * postRate at any time and carries it on the mirrors) and finds the site's two mirrors in it by
 * mRID, creating any that is missing. The list is the aggregator's, holding every site's mirrors:
 * it is read once per post interval for all sites, not by each. Resolves to the server's postRate.
 */
export async function syncMirrors(ctx: GridContext, site: Site, defaultPostRate: number): Promise<number> {
  const listHref = ctx.dcap().MirrorUsagePointListLink?.href;
  if (!listHref) throw new Error("DeviceCapability has no MirrorUsagePointListLink");
  let postRate = site.mups?.postRate ?? site.endDevice?.postRate ?? defaultPostRate;
  // Half an interval: every site waking at the same boundary shares one read, the next boundary reads again.
  // Indexed by mRID once per read: a thousand sites each searching two thousand mirrors is millions of comparisons.
  const { value: listedByMrid, readAt } = await ctx.shared.read(listHref, (postRate * 1000) / 2, async () => {
    const { items } = await readList(ctx.http, listHref, "MirrorUsagePointList", (l) => l.MirrorUsagePoint);
    return new Map(items.map((m) => [m.mRID, m]));
  });
  const locations: Partial<Record<Role, string>> = {};
  let createdAt = site.mups?.createdAt;
  for (const role of ["site", "der"] as const) {
    const listed = listedByMrid.get(mrid(ctx, site, "mup", role));
    if (listed?.href) {
      locations[role] = listed.href;
      if (listed.postRate) postRate = listed.postRate;
      continue;
    }
    // Created after that read: the list did not hold it yet.
    const made = site.mups?.[role];
    if (made && (createdAt ?? 0) >= readAt) {
      locations[role] = made;
      continue;
    }
    const reply = await ctx.http.send(
      "POST",
      listHref,
      "MirrorUsagePoint",
      mirrorUsagePoint(ctx, site, role, postRate),
      site.row.id,
    );
    if (!reply.location) throw new Error("The utility created a MirrorUsagePoint without a Location");
    locations[role] = reply.location;
    const created = await ctx.http.get(reply.location, ["MirrorUsagePoint"], site.row.id);
    if (created.postRate) postRate = created.postRate;
    createdAt = ctx.clock.now();
  }
  site.mups = { site: locations.site as string, der: locations.der as string, postRate, createdAt };
  return postRate;
}

function values(averages: IntervalAverages, role: Role, storageWh: number): Record<Quantity, number | null> {
  if (role === "site") return { W: averages.sitePowerW, var: averages.siteReactiveVar, V: averages.voltageV, Wh: null };
  const storedWh = averages.socPercent === null ? null : (storageWh * averages.socPercent) / 100;
  return { W: averages.derPowerW, var: averages.derReactiveVar, V: null, Wh: storedWh };
}

/** Posts the averages of the interval ending at `endMs` to both mirrors; skipped when no sample fell in it. */
export async function postReadings(ctx: GridContext, site: Site, endMs: number, intervalS: number): Promise<boolean> {
  if (!site.mups) return false;
  const averages = await ctx.facts.averages(site.device.deviceId, new Date(endMs - intervalS * 1000), new Date(endMs));
  if (averages.samples === 0) return false;
  const { storageWh } = await ctx.facts.facts(site.device.deviceId);
  const timePeriod = { start: seconds(endMs) - intervalS, duration: intervalS };
  for (const role of ["site", "der"] as const) {
    const v = values(averages, role, storageWh);
    const streams: MirrorMeterReading[] = STREAMS[role].flatMap((q) => {
      const value = v[q];
      return value === null ? [] : [{ mRID: mrid(ctx, site, "mmr", role, q), Reading: { timePeriod, value: Math.round(value) } }];
    });
    if (streams.length === 0) continue;
    await ctx.http.send(
      "POST",
      site.mups[role],
      "MirrorMeterReadingList",
      { all: streams.length, results: streams.length, MirrorMeterReading: streams },
      site.row.id,
    );
  }
  return true;
}
