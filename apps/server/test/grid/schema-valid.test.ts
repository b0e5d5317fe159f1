import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";
import { controlNow, programWithDefault, RATES_60, SITE_NMI, SITE_SN, telemetry } from "./procedures/procedure-world.ts";

/**
 * Every document exchanged with the utility, both ways, validated against IEEE's published 2030.5
 * schema (`sep.xsd`). IEEE's copyright forbids shipping that file, so the test reads it from
 * `SEP_XSD` (a path) and is skipped where it is not given. The CSIP-AUS extension elements and
 * attributes have no public schema to check them against: they are taken out before validating, so
 * what is checked is everything of 2030.5 itself (element order, required fields, types, ranges).
 * ConnectionPoint is CSIP-AUS's own resource (its root is in that namespace), so nothing of it is left.
 */

const XSD = process.env.SEP_XSD;

/** The resources a registered, controlled and mirrored site exchanges, each expected at least once. */
const EXPECTED = [
  "DeviceCapability",
  "Time",
  "EndDeviceList",
  "EndDevice",
  "Registration",
  "DERList",
  "DERCapability",
  "DERSettings",
  "DERStatus",
  "DERAvailability",
  "FunctionSetAssignmentsList",
  "DERProgramList",
  "DefaultDERControl",
  "DERControlList",
  "MirrorUsagePoint",
  "MirrorMeterReadingList",
  "DERControlResponse",
];

/** Removes the CSIP-AUS namespace's elements (with their content) and attributes from a document. */
function without2030Extensions(xml: string): string {
  let previous: string;
  let out = xml;
  do {
    previous = out;
    out = out.replace(/<csipaus:([\w.]+)\b[^>]*?(?:\/>|>(?:(?!<csipaus:\1\b)[\s\S])*?<\/csipaus:\1\s*>)/g, "");
  } while (out !== previous);
  return out.replace(/\s+csipaus:[\w.]+="[^"]*"/g, "");
}

function validate(xml: { fileName: string; contents: string }[]) {
  return validateXML({ xml, schema: [{ fileName: "sep.xsd", contents: readFileSync(XSD as string, "utf8") }] });
}

interface Exchanged {
  direction: number;
  method: string;
  path: string;
  resource: string | null;
  body: string;
}

describe.skipIf(!XSD)("2030.5 documents against IEEE's schema (SEP_XSD)", () => {
  let world: GridWorld;
  let documents: Exchanged[];

  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [
        { sn: SITE_SN, nmi: SITE_NMI },
        { sn: "SCHEMA2", nmi: NMIS[1], outOfBand: { pin: 111115 } },
      ],
      rates: RATES_60,
      defaultPin: "111115",
      beforeClient: (sim) => {
        programWithDefault({ impW: 5000, expW: 1500 })({ control: sim.control });
        controlNow(600, { impW: 4000, expW: 0 })({ control: sim.control });
      },
    });
    await telemetry(world, 3);
    const wanted = new Set(EXPECTED);
    const until = Date.now() + 30_000;
    for (;;) {
      const { rows } = await world.db.query<Exchanged>(
        "SELECT direction, method, path, resource, body FROM grid_exchange WHERE body <> '' ORDER BY id",
      );
      documents = rows;
      const seen = new Set(rows.map((r) => r.resource));
      if ([...wanted].every((name) => seen.has(name)) || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 60_000);
  afterAll(() => world?.close());

  it("exchanges every kind of document a registered, controlled and mirrored site does", () => {
    const seen = new Set(documents.map((d) => d.resource));
    expect(EXPECTED.filter((name) => !seen.has(name))).toEqual([]);
  });

  it("every document, sent and received, is valid 2030.5", async () => {
    const distinct = [...new Map(documents.map((d) => [d.body, d])).values()].filter((d) => d.resource !== "ConnectionPoint");
    const result = await validate(
      distinct.map((d, i) => ({
        fileName: `${i}-${d.direction === 2 ? "sent" : "received"}-${d.resource}.xml`,
        contents: without2030Extensions(d.body),
      })),
    );
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the schema check refuses a document the schema does not allow (an EndDevice without its SFDI)", async () => {
    const sent = documents.find((d) => d.resource === "EndDevice" && d.direction === 2);
    expect(sent?.body).toMatch(/<sFDI>/);
    const broken = without2030Extensions(sent?.body ?? "").replace(/<sFDI>\d+<\/sFDI>/, "");
    const result = await validate([{ fileName: "broken-EndDevice.xml", contents: broken }]);
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toMatch(/sFDI/);
  });
});
