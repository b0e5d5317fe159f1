import { checkNmi } from "@ess/domain";
import type { EndDevice, SepResources } from "@ess/sep2";
import { derAvailability, derCapability, derSettings, derStatus } from "./der-descriptions.ts";
import { type GridContext, type Site, seconds } from "./grid-context.ts";
import { readList } from "./list-reader.ts";

/**
 * A site's registration with the utility (CSIP-AUS): find its EndDevice by LFDI among those the
 * aggregator sees (registered out of band by the utility), or register it in band; check the
 * Registration's PIN against the installer's; write the NMI to the ConnectionPoint; describe the DER.
 */

export type RegistrationOutcome = { kind: "registered" } | { kind: "pinMismatch"; expected: string; found: string };

/** The EndDevice of the site among the listed ones, or a new one registered in band. */
async function endDeviceHref(ctx: GridContext, site: Site, listed: readonly EndDevice[]): Promise<string> {
  const known = listed.find((e) => e.lFDI?.toUpperCase() === site.row.lfdi);
  if (known?.href) return known.href;
  const listHref = ctx.dcap().EndDeviceListLink?.href;
  if (!listHref) throw new Error("DeviceCapability has no EndDeviceListLink");
  const reply = await ctx.http.send(
    "POST",
    listHref,
    "EndDevice",
    { lFDI: site.row.lfdi, sFDI: site.row.sfdi, changedTime: seconds(ctx.serverNow()) },
    site.row.id,
  );
  if (!reply.location) throw new Error("The utility registered the EndDevice without a Location");
  return reply.location;
}

/** The PIN a site must show: its own column, else the configured default; null = not checked. */
export function expectedPin(site: Site, defaultPin: string | undefined): string | null {
  return site.row.pin ?? defaultPin ?? null;
}

export async function registerSite(
  ctx: GridContext,
  site: Site,
  listed: readonly EndDevice[],
  defaultPin: string | undefined,
): Promise<RegistrationOutcome> {
  const href = await endDeviceHref(ctx, site, listed);
  const endDevice = await ctx.http.get(href, ["EndDevice"], site.row.id);
  site.endDeviceHref = href;
  site.endDevice = endDevice;
  const pin = expectedPin(site, defaultPin);
  if (pin !== null && endDevice.RegistrationLink) {
    const registration = await ctx.http.get(endDevice.RegistrationLink.href, ["Registration"], site.row.id);
    const found = String(registration.pIN).padStart(6, "0");
    if (found !== pin) return { kind: "pinMismatch", expected: pin, found };
  }
  await writeConnectionPoint(ctx, site);
  await describeDer(ctx, site);
  return { kind: "registered" };
}

/** Writes the site's NMI to its ConnectionPoint when it is valid and not written yet (staff may change it later). */
export async function writeConnectionPoint(ctx: GridContext, site: Site): Promise<void> {
  const link = site.endDevice?.ConnectionPointLink;
  const nmi = site.device.nmi;
  if (!link || nmi === site.nmiWritten || !checkNmi(nmi).ok) return;
  await ctx.http.send("PUT", link.href, "ConnectionPoint", { connectionPointId: nmi }, site.row.id);
  site.nmiWritten = nmi;
}

/**
 * A description is written again only when what it says changed (its timestamps aside), and at the
 * latest an hour after it was last written, in case the utility lost it. Writing the four of them
 * every DER list period was four requests per site per period for nothing.
 */
export const DESCRIPTION_RESTATE_MS = 3_600_000;

const TIMESTAMPS = new Set(["updatedTime", "readingTime", "dateTime"]);
const signature = (body: object) => JSON.stringify(body, (key, value) => (TIMESTAMPS.has(key) ? undefined : value));

/** Finds the site's DER and writes its capability, settings, status and availability where they changed. */
export async function describeDer(ctx: GridContext, site: Site): Promise<number | undefined> {
  const listHref = site.endDevice?.DERListLink?.href;
  if (!listHref) return undefined;
  const { items, pollRate } = await readList(ctx.http, listHref, "DERList", (l) => l.DER, site.row.id);
  const der = items[0];
  if (!der?.href) return pollRate;
  if (site.derHref !== der.href) site.written = new Map();
  site.derHref = der.href;
  const facts = await ctx.facts.facts(site.device.deviceId);
  const now = seconds(ctx.serverNow());
  const written = site.written ?? new Map<string, { signature: string; at: number }>();
  site.written = written;
  const write = async <N extends "DERCapability" | "DERSettings" | "DERStatus" | "DERAvailability">(
    link: { href: string } | undefined,
    name: N,
    body: SepResources[N],
  ) => {
    if (!link) return;
    const said = signature(body);
    const last = written.get(link.href);
    if (last?.signature === said && ctx.clock.now() - last.at < DESCRIPTION_RESTATE_MS) return;
    await ctx.http.send("PUT", link.href, name, body, site.row.id);
    written.set(link.href, { signature: said, at: ctx.clock.now() });
  };
  await write(der.DERCapabilityLink, "DERCapability", derCapability(facts));
  await write(der.DERSettingsLink, "DERSettings", derSettings(facts, now, site.gradW));
  await write(der.DERStatusLink, "DERStatus", derStatus(facts, now));
  await write(der.DERAvailabilityLink, "DERAvailability", derAvailability(facts, now));
  return pollRate;
}
