/**
 * National Metering Identifier (NMI): the identifier of an Australian electricity connection point,
 * written to a site's CSIP-AUS ConnectionPoint.
 *
 * - Ten characters: digits and upper-case letters except O and I (AEMO, NMI Procedure).
 * - An optional eleventh character, the checksum digit of AEMO's algorithm: walk the ten characters
 *   from the right, take each character's ASCII code, double it for the rightmost character and
 *   every second one after it, add up the decimal digits of all these numbers, and the checksum is
 *   what brings that total to the next multiple of 10.
 * - Each distribution network (DNSP) is allocated ranges of NMIs (AEMO, NMI Allocation List). The
 *   ranges below are those of the distribution networks as the list's version 13 (November 2022) is
 *   encoded by the CSIP-AUS reference utility server (bsgip/envoy `nmi_validator.py`), checked against
 *   an earlier encoding of the list (jufemaiz/aemo, list of 2012 and 2017). Where the two disagree the
 *   range carries a note. An NMI with W as its fifth character is never in a distribution range
 *   (both encodings exclude it; the earlier one gives such NMIs to transmission networks).
 *   Transmission, exempt (embedded) networks, gas and AEMO's reserved blocks are not distribution
 *   networks and are not listed: such an NMI is refused as outside every network's range.
 */

export type NmiJurisdiction = "ACT" | "NSW" | "NT" | "QLD" | "SA" | "TAS" | "VIC" | "WA";

/**
 * One allocated range, as a ten-character template: `#` a digit, `*` any NMI character, anything
 * else itself. A range whose network differs between the sources carries a note saying so.
 */
export interface NmiRange {
  template: string;
  note?: string;
}

export interface NmiNetwork {
  /** Our stable key for the network. */
  key: string;
  /** The network's AEMO market participant ID; null where it has none (the WA networks are outside the NEM). */
  participantId: string | null;
  /** The network operator's name (a proper name, the same in every language). */
  name: string;
  jurisdiction: NmiJurisdiction;
  ranges: readonly NmiRange[];
}

const NSW_LETTER_BLOCKS =
  "NDDD and NEEE: list v13 as encoded by envoy gives NDDD to Endeavour Energy and NEEE to Essential Energy; the 2012/2017 encoding gives them the other way round";

const alnum = (prefix: string): NmiRange => ({ template: prefix.padEnd(10, "*") });
const digits = (prefix: string): NmiRange => ({ template: prefix.padEnd(10, "#") });
const noted = (range: NmiRange, note: string): NmiRange => ({ ...range, note });

/** Distribution networks and their NMI ranges (see the file's header for the sources). */
export const NMI_NETWORKS: readonly NmiNetwork[] = [
  {
    key: "evoenergy",
    participantId: "ACTEWP",
    name: "Evoenergy",
    jurisdiction: "ACT",
    ranges: [alnum("NGGG"), digits("7001")],
  },
  {
    key: "essential-energy",
    participantId: "CNRGYP",
    name: "Essential Energy",
    jurisdiction: "NSW",
    ranges: [
      alnum("NAAA"),
      alnum("NBBB"),
      noted(alnum("NEEE"), NSW_LETTER_BLOCKS),
      alnum("NFFF"),
      digits("4001"),
      noted(digits("45080"), "the 2012/2017 encoding has the wider 4508xxxxxx"),
      digits("4204"),
      digits("4407"),
    ],
  },
  {
    key: "ausgrid",
    participantId: "ENERGYAP",
    name: "Ausgrid",
    jurisdiction: "NSW",
    ranges: [alnum("NCCC"), digits("4102"), digits("4103"), digits("4104")],
  },
  {
    key: "endeavour-energy",
    participantId: "INTEGP",
    name: "Endeavour Energy",
    jurisdiction: "NSW",
    ranges: [noted(alnum("NDDD"), NSW_LETTER_BLOCKS), digits("431")],
  },
  {
    key: "power-and-water",
    participantId: "PWCLNSP",
    name: "Power and Water Corporation",
    jurisdiction: "NT",
    ranges: [digits("250")],
  },
  {
    key: "ergon-energy",
    participantId: "ERGONETP",
    name: "Ergon Energy",
    jurisdiction: "QLD",
    ranges: [alnum("QAAA"), alnum("QCCC"), alnum("QDDD"), alnum("QEEE"), alnum("QFFF"), alnum("QGGG"), digits("30")],
  },
  {
    key: "energex",
    participantId: "ENERGEXP",
    name: "Energex",
    jurisdiction: "QLD",
    ranges: [{ template: "QB##******" }, digits("31")],
  },
  {
    key: "sa-power-networks",
    participantId: "UMPLP",
    name: "SA Power Networks",
    jurisdiction: "SA",
    ranges: [alnum("SAAA"), digits("SASMPL"), digits("2001"), digits("2002")],
  },
  {
    key: "tasnetworks",
    participantId: "AURORAP",
    name: "TasNetworks",
    jurisdiction: "TAS",
    ranges: [
      noted(
        digits("T"),
        "the 2012/2017 encoding has a narrow T000000… block instead (written with eleven characters) plus 8000xxxxxx and 85902/85903xxxxx, which list v13 as encoded by envoy does not have",
      ),
    ],
  },
  {
    key: "citipower",
    participantId: "CITIPP",
    name: "CitiPower",
    jurisdiction: "VIC",
    ranges: [alnum("VAAA"), digits("6102"), digits("6103")],
  },
  {
    key: "ausnet",
    participantId: "EASTERN",
    name: "AusNet Services",
    jurisdiction: "VIC",
    ranges: [alnum("VBBB"), digits("6305"), digits("6306")],
  },
  {
    key: "powercor",
    participantId: "POWCP",
    name: "Powercor",
    jurisdiction: "VIC",
    ranges: [alnum("VCCC"), digits("6203"), digits("6204")],
  },
  {
    key: "jemena",
    participantId: "SOLARISP",
    name: "Jemena",
    jurisdiction: "VIC",
    ranges: [alnum("VDDD"), digits("6001")],
  },
  {
    key: "united-energy",
    participantId: "UNITED",
    name: "United Energy",
    jurisdiction: "VIC",
    ranges: [alnum("VEEE"), digits("6407"), digits("6408")],
  },
  {
    key: "western-power",
    participantId: null,
    name: "Western Power",
    jurisdiction: "WA",
    ranges: [alnum("WAAA"), noted(digits("8001"), "the 2012/2017 encoding has the wider 8001xxxxxx–8019xxxxxx"), digits("8020")],
  },
  {
    key: "horizon-power",
    participantId: null,
    name: "Horizon Power",
    jurisdiction: "WA",
    ranges: [digits("8021")],
  },
];

/** Characters an NMI may contain (AEMO: digits and letters, never O or I). */
const NMI_CHARACTER = /^[0-9A-HJ-NP-Z]$/;

function templateMatches(template: string, nmi: string): boolean {
  for (let i = 0; i < 10; i++) {
    const t = template.charAt(i);
    const c = nmi.charAt(i);
    if (t === "#" ? !/^[0-9]$/.test(c) : t === "*" ? !NMI_CHARACTER.test(c) : t !== c) return false;
  }
  return true;
}

/** The distribution network whose range holds the ten-character NMI, or null. */
export function nmiNetwork(nmi: string): NmiNetwork | null {
  if (nmi.length < 10 || nmi.charAt(4) === "W") return null;
  const base = nmi.slice(0, 10);
  return NMI_NETWORKS.find((n) => n.ranges.some((r) => templateMatches(r.template, base))) ?? null;
}

/** AEMO's checksum digit of a ten-character NMI. */
export function nmiChecksum(nmi: string): number {
  if (nmi.length !== 10) throw new RangeError("The NMI checksum is computed over ten characters");
  let total = 0;
  for (let i = 0; i < 10; i++) {
    // i counts from the right: the rightmost character (i = 0) and every second one are doubled.
    let value = nmi.charCodeAt(9 - i) * (i % 2 === 0 ? 2 : 1);
    while (value > 0) {
      total += value % 10;
      value = Math.floor(value / 10);
    }
  }
  return (10 - (total % 10)) % 10;
}

export type NmiRefusal = "length" | "character" | "checksum" | "range";

export type NmiCheck =
  | {
      ok: true;
      /** The ten characters. */
      nmi: string;
      checksum: number;
      /** The eleven-character form (ten characters and the checksum), as written to a ConnectionPoint. */
      withChecksum: string;
      network: NmiNetwork;
    }
  | { ok: false; refusal: NmiRefusal };

/**
 * Checks an NMI as typed: surrounding spaces are ignored and letters may be lower case. Ten
 * characters, or eleven with the checksum digit last; then the characters, the checksum and the
 * distribution network ranges, in that order.
 */
export function checkNmi(input: string): NmiCheck {
  const value = input.trim().toUpperCase();
  if (value.length !== 10 && value.length !== 11) return { ok: false, refusal: "length" };
  const nmi = value.slice(0, 10);
  for (const c of nmi) if (!NMI_CHARACTER.test(c)) return { ok: false, refusal: "character" };
  const checksum = nmiChecksum(nmi);
  if (value.length === 11 && value.charAt(10) !== String(checksum)) return { ok: false, refusal: "checksum" };
  const network = nmiNetwork(nmi);
  if (!network) return { ok: false, refusal: "range" };
  return { ok: true, nmi, checksum, withChecksum: nmi + String(checksum), network };
}

/** The translated message key of each refusal (namespace `validation`). */
export const NMI_REFUSAL_KEYS: Readonly<Record<NmiRefusal, string>> = {
  length: "validation:nmiLength",
  character: "validation:nmiCharacter",
  checksum: "validation:nmiChecksum",
  range: "validation:nmiRange",
};

/**
 * For a contract's refinement: the message key refusing the value, or null when it is a valid NMI.
 * E.g. `text(…).superRefine((v, ctx) => { const m = nmiRefusal(v); if (m) ctx.addIssue({ code: "custom", message: m }); })`.
 */
export function nmiRefusal(input: string): string | null {
  const check = checkNmi(input);
  return check.ok ? null : NMI_REFUSAL_KEYS[check.refusal];
}

/** Whether the value is a valid NMI of a known distribution network. */
export function isNmi(input: string): boolean {
  return checkNmi(input).ok;
}

/** The eleven-character form to store, or null when the value is not a valid NMI. */
export function normaliseNmi(input: string): string | null {
  const check = checkNmi(input);
  return check.ok ? check.withChecksum : null;
}
