import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkNmi, isNmi, NMI_NETWORKS, nmiChecksum, nmiNetwork, nmiRefusal, normaliseNmi } from "./nmi.ts";

// The checksum examples of AEMO's National Metering Identifier Procedure (v5.1, appendix), as
// quoted by bsgip/envoy tests/unit/server/manager/test_nmi_validator.py; a subset is also quoted by
// the nmicheck library's tests.
const AEMO_CHECKSUM_EXAMPLES: ReadonlyArray<[string, number]> = [
  ["1234C6789A", 3],
  ["2001985732", 8],
  ["2001985733", 6],
  ["3075621875", 8],
  ["3075621876", 6],
  ["4316854005", 9],
  ["4316854006", 7],
  ["6305888444", 6],
  ["6350888444", 2],
  ["7001888333", 8],
  ["7102000001", 7],
  ["NAAAMYS582", 6],
  ["NBBBX11110", 0],
  ["NBBBX11111", 8],
  ["NCCC519495", 5],
  ["NGGG000055", 4],
  ["QAAAVZZZZZ", 3],
  ["QCDWW00010", 2],
  ["SMVEW00085", 8],
  ["VAAA000065", 7],
  ["VAAA000066", 5],
  ["VAAA000067", 2],
  ["VAAASTY576", 8],
  ["VCCCX00009", 1],
  ["VEEEX00009", 1],
  ["VKTS786150", 2],
  ["VKTS867150", 5],
  ["VKTS871650", 7],
  ["VKTS876105", 7],
  ["VKTS876150", 3],
  ["VKTS876510", 8],
];

describe("NMI checksum (AEMO)", () => {
  it.each(AEMO_CHECKSUM_EXAMPLES)("%s has the checksum %i", (nmi, checksum) => {
    expect(nmiChecksum(nmi)).toBe(checksum);
  });

  it("refuses an NMI whose eleventh character is not its checksum", () => {
    expect(checkNmi("20019857328")).toMatchObject({ ok: true, nmi: "2001985732", checksum: 8 });
    expect(checkNmi("20019857327")).toEqual({ ok: false, refusal: "checksum" });
    expect(checkNmi("2001985732X")).toEqual({ ok: false, refusal: "checksum" });
    expect(nmiRefusal("QAAAVZZZZZ0")).toBe("validation:nmiChecksum");
  });
});

describe("NMI form", () => {
  it("takes ten characters, or eleven with the checksum, ignoring spaces around and letter case", () => {
    expect(normaliseNmi("QAAAVZZZZZ")).toBe("QAAAVZZZZZ3");
    expect(normaliseNmi(" qaaavzzzzz3 ")).toBe("QAAAVZZZZZ3");
    expect(checkNmi("200198573")).toEqual({ ok: false, refusal: "length" });
    expect(checkNmi("200198573288")).toEqual({ ok: false, refusal: "length" });
    expect(nmiRefusal("")).toBe("validation:nmiLength");
  });

  it("refuses the letters O and I and anything that is not a digit or a letter", () => {
    expect(checkNmi("NCCC51949O")).toEqual({ ok: false, refusal: "character" });
    expect(checkNmi("NCCCI19495")).toEqual({ ok: false, refusal: "character" });
    expect(checkNmi("NCCC-19495")).toEqual({ ok: false, refusal: "character" });
    expect(checkNmi("NCCC 19495")).toEqual({ ok: false, refusal: "character" });
    expect(nmiRefusal("NCCC51949O")).toBe("validation:nmiCharacter");
  });
});

describe("NMI ranges of the distribution networks (AEMO NMI Allocation List)", () => {
  // AEMO's own examples fall in these networks' ranges.
  it.each([
    ["2001985732", "sa-power-networks", "SA"],
    ["3075621875", "ergon-energy", "QLD"],
    ["4316854005", "endeavour-energy", "NSW"],
    ["6305888444", "ausnet", "VIC"],
    ["7001888333", "evoenergy", "ACT"],
    ["NAAAMYS582", "essential-energy", "NSW"],
    ["NBBBX11110", "essential-energy", "NSW"],
    ["NCCC519495", "ausgrid", "NSW"],
    ["NGGG000055", "evoenergy", "ACT"],
    ["QAAAVZZZZZ", "ergon-energy", "QLD"],
    ["VAAA000065", "citipower", "VIC"],
    ["VAAASTY576", "citipower", "VIC"],
    ["VCCCX00009", "powercor", "VIC"],
    ["VEEEX00009", "united-energy", "VIC"],
  ])("%s belongs to %s (%s)", (nmi, key, jurisdiction) => {
    const check = checkNmi(nmi);
    expect(check.ok && { key: check.network.key, jurisdiction: check.network.jurisdiction }).toEqual({ key, jurisdiction });
  });

  // The valid NMIs of the reference utility server's tests (bsgip/envoy test_nmi_validator.py).
  it.each([
    ["NGGG1234561", "evoenergy"],
    ["70011234564", "evoenergy"],
    ["NAAA1234564", "essential-energy"],
    ["45080000009", "essential-energy"],
    ["NCCC1234564", "ausgrid"],
    ["41020000002", "ausgrid"],
    ["NDDD1234569", "endeavour-energy"],
    ["QAAA1234560", "ergon-energy"],
    ["QB121234569", "energex"],
  ])("%s is valid and belongs to %s", (nmi, key) => {
    const check = checkNmi(nmi);
    expect(check.ok && check.network.key).toBe(key);
  });

  it("refuses NMIs outside every distribution network's range", () => {
    // AEMO examples that are not distribution NMIs: W as fifth character, exempt networks, unallocated blocks.
    for (const nmi of ["QCDWW00010", "SMVEW00085", "7102000001", "6350888444", "VKTS876150", "1234C6789A"]) {
      expect(checkNmi(nmi)).toEqual({ ok: false, refusal: "range" });
    }
    expect(checkNmi("NCCCW12345")).toEqual({ ok: false, refusal: "range" });
    expect(nmiRefusal("7102000001")).toBe("validation:nmiRange");
    expect(nmiNetwork("7102000001")).toBeNull();
  });

  it("gives every range ten characters and no two networks the same range", () => {
    const seen = new Map<string, string>();
    for (const network of NMI_NETWORKS) {
      for (const range of network.ranges) {
        expect(range.template).toHaveLength(10);
        expect(seen.get(range.template)).toBeUndefined();
        seen.set(range.template, network.key);
      }
    }
  });

  it("accepts a valid NMI and refuses an invalid one through the predicates", () => {
    expect(isNmi("NCCC5194955")).toBe(true);
    expect(nmiRefusal("NCCC5194955")).toBeNull();
    expect(isNmi("NCCC5194954")).toBe(false);
  });
});

describe("NMI refusal in a schema", () => {
  const schema = z.string().superRefine((value, ctx) => {
    const message = nmiRefusal(value);
    if (message) ctx.addIssue({ code: "custom", message });
  });

  it("passes a valid NMI and refuses an invalid one with its message key", () => {
    expect(schema.safeParse("VAAA0000657").success).toBe(true);
    const refused = schema.safeParse("VAAA0000656");
    expect(refused.success ? null : refused.error.issues.map((i) => i.message)).toEqual(["validation:nmiChecksum"]);
  });
});
