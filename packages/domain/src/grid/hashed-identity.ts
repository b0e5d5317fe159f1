import { createHash, X509Certificate } from "node:crypto";
import { GRID_IDENTITY_DEFAULTS, isLfdi, lfdiFromDigest, lfdiWithPen, mridWithPen, sfdiFromLfdi } from "./identity.ts";

/**
 * The identifiers that need SHA-256. They use node:crypto, so this file is for the server (and the
 * utility test server) only: it is deliberately not exported from the package's index, which the
 * browser bundle reads; import it as `@ess/domain/grid/hashed-identity.ts`.
 */

export interface DeviceIdentity {
  /** 40 upper-case hexadecimal digits. */
  lfdi: string;
  /** Decimal, check digit included. */
  sfdi: string;
}

/** LFDI and SFDI of a certificate, given as its DER bytes or as PEM text. */
export function certificateIdentity(certificate: Uint8Array | string): DeviceIdentity {
  const der = typeof certificate === "string" ? new X509Certificate(certificate).raw : certificate;
  const lfdi = lfdiFromDigest(createHash("sha256").update(der).digest());
  return { lfdi, sfdi: sfdiFromLfdi(lfdi) };
}

function hexOf(...parts: string[]): string {
  // A unit separator between the parts so that ("ab","c") and ("a","bc") differ.
  return createHash("sha256").update(parts.join("\u001f")).digest("hex").toUpperCase();
}

/**
 * The LFDI the aggregator gives the EndDevice of one of its sites: 32 hexadecimal digits derived
 * from the aggregator's own LFDI and the site's stable key, then the PEN. The same site always gets
 * the same LFDI; it never equals the aggregator's own (that one comes from its certificate).
 */
export function siteIdentity(aggregatorLfdi: string, siteKey: string, pen: number = GRID_IDENTITY_DEFAULTS.pen): DeviceIdentity {
  if (!isLfdi(aggregatorLfdi)) throw new RangeError("The aggregator's LFDI has 40 upper-case hexadecimal digits");
  if (siteKey.length === 0) throw new RangeError("A site needs a key");
  const lfdi = lfdiWithPen(hexOf("site-lfdi", aggregatorLfdi, siteKey).slice(0, 32), pen);
  return { lfdi, sfdi: sfdiFromLfdi(lfdi) };
}

/**
 * A stable mRID for an object the aggregator creates (a MirrorUsagePoint, a reading type…): 24
 * hexadecimal digits derived from the parts that name the object, then the PEN.
 */
export function derivedMrid(parts: readonly string[], pen: number = GRID_IDENTITY_DEFAULTS.pen): string {
  if (parts.length === 0) throw new RangeError("An mRID needs at least one naming part");
  return mridWithPen(hexOf("mrid", ...parts).slice(0, 24), pen);
}
