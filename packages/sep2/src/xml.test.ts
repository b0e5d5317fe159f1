import { describe, expect, it } from "vitest";
import type { DERControlList, DERStatus, EndDevice, EndDeviceList, MirrorUsagePoint } from "./index.ts";
import { CSIPAUS_NAMESPACE, decodeAs, decodeSep, encodeSep, SEP_NAMESPACE, SepXmlError } from "./xml.ts";

// An EndDeviceList as a CSIP-AUS utility server sends it: attributes on the list and links, an lFDI
// and mRID-like values with leading zeros that must not turn into numbers.
const END_DEVICE_LIST = `<?xml version="1.0" encoding="UTF-8"?>
<EndDeviceList xmlns="urn:ieee:std:2030.5:ns" xmlns:csipaus="https://csipaus.org/ns/v1.3" href="/edev" all="2" results="1" subscribable="0" pollRate="300">
  <EndDevice href="/edev/1" subscribable="0">
    <DERListLink href="/edev/1/der" all="1"/>
    <deviceCategory>0</deviceCategory>
    <lFDI>0012ABCDEF0012ABCDEF0012ABCDEF0000032473</lFDI>
    <sFDI>004817416</sFDI>
    <changedTime>1764230400</changedTime>
    <enabled>1</enabled>
    <FunctionSetAssignmentsListLink href="/edev/1/fsa" all="1"/>
    <RegistrationLink href="/edev/1/rg"/>
    <csipaus:ConnectionPointLink href="/edev/1/cp"/>
  </EndDevice>
</EndDeviceList>`;

describe("sep XML", () => {
  it("reads a list: attributes as numbers, one member still a list, identifiers as text", () => {
    const list = decodeAs(END_DEVICE_LIST, "EndDeviceList");
    expect(list).toMatchObject({ href: "/edev", all: 2, results: 1, pollRate: 300 });
    expect(list.EndDevice).toHaveLength(1);
    const device = list.EndDevice?.[0] as EndDevice;
    expect(device.lFDI).toBe("0012ABCDEF0012ABCDEF0012ABCDEF0000032473");
    expect(device.sFDI).toBe("004817416");
    expect(device.deviceCategory).toBe("0");
    expect(device.changedTime).toBe(1764230400);
    expect(device.enabled).toBe(true);
    expect(device.DERListLink).toEqual({ href: "/edev/1/der", all: 1 });
    expect(device.ConnectionPointLink).toEqual({ href: "/edev/1/cp" });
  });

  it("writes the sep namespace as default and csipaus elements with their prefix, and reads back the same", () => {
    const list = decodeAs(END_DEVICE_LIST, "EndDeviceList");
    const xml = encodeSep("EndDeviceList", list);
    expect(xml).toContain(`<EndDeviceList xmlns="${SEP_NAMESPACE}" xmlns:csipaus="${CSIPAUS_NAMESPACE}"`);
    expect(xml).toContain('<csipaus:ConnectionPointLink href="/edev/1/cp"/>');
    expect(xml).toContain("<lFDI>0012ABCDEF0012ABCDEF0012ABCDEF0000032473</lFDI>");
    expect(xml).toContain("<enabled>true</enabled>");
    expect(decodeAs(xml, "EndDeviceList")).toEqual(list);
  });

  it("round-trips a DER control with CSIP-AUS limits, an mRID of 32 hex digits and a hex responseRequired", () => {
    const controls: DERControlList = {
      href: "/edev/1/derp/1/derc",
      all: 1,
      results: 1,
      subscribable: 1,
      DERControl: [
        {
          href: "/edev/1/derp/1/derc/1",
          replyTo: "/edev/1/rsps/site_control/rsp",
          responseRequired: "03",
          mRID: "00000000000000000000000000032473",
          description: "Export limit",
          version: 0,
          creationTime: 1764230000,
          EventStatus: { currentStatus: 1, dateTime: 1764230000, potentiallySuperseded: false },
          interval: { duration: 300, start: 1764230400 },
          randomizeStart: 0,
          DERControlBase: {
            opModEnergize: true,
            rampTms: 6000,
            opModExpLimW: { multiplier: 0, value: 1500 },
            opModStorageTargetW: { multiplier: 3, value: -5 },
          },
        },
      ],
    };
    const xml = encodeSep("DERControlList", controls);
    expect(xml).toContain('replyTo="/edev/1/rsps/site_control/rsp" responseRequired="03"');
    expect(xml).toMatch(/<csipaus:opModExpLimW>\s*<multiplier>0<\/multiplier>\s*<value>1500<\/value>\s*<\/csipaus:opModExpLimW>/);
    const back = decodeAs(xml, "DERControlList");
    expect(back).toEqual(controls);
    expect(back.DERControl?.[0]?.mRID).toBe("00000000000000000000000000032473");
  });

  it("keeps hexadecimal status values as text while other status values are numbers", () => {
    const status: DERStatus = {
      href: "/edev/1/der/1/ders",
      genConnectStatus: { dateTime: 1764230400, value: "05" },
      inverterStatus: { dateTime: 1764230400, value: 4 },
      manufacturerStatus: { dateTime: 1764230400, value: "000123" },
      operationalModeStatus: { dateTime: 1764230400, value: 2 },
      readingTime: 1764230400,
      stateOfChargeStatus: { dateTime: 1764230400, value: 5500 },
      storConnectStatus: { dateTime: 1764230400, value: "07" },
    };
    expect(decodeAs(encodeSep("DERStatus", status), "DERStatus")).toEqual(status);
  });

  it("reads a MirrorUsagePoint from a client written with a prefixed sep namespace", () => {
    const xml = `<sep:MirrorUsagePoint xmlns:sep="urn:ieee:std:2030.5:ns">
      <sep:mRID>0A1B2C3D4E5F60718293A4B500032473</sep:mRID>
      <sep:description>Site</sep:description>
      <sep:roleFlags>0049</sep:roleFlags>
      <sep:serviceCategoryKind>0</sep:serviceCategoryKind>
      <sep:status>1</sep:status>
      <sep:deviceLFDI>0000000000000000000000000000000000032473</sep:deviceLFDI>
      <sep:MirrorMeterReading>
        <sep:mRID>1A1B2C3D4E5F60718293A4B500032473</sep:mRID>
        <sep:description>Site active power</sep:description>
        <sep:Reading><sep:timePeriod><sep:duration>60</sep:duration><sep:start>1764230340</sep:start></sep:timePeriod><sep:value>-1234</sep:value></sep:Reading>
        <sep:ReadingType><sep:accumulationBehaviour>12</sep:accumulationBehaviour><sep:dataQualifier>2</sep:dataQualifier><sep:flowDirection>1</sep:flowDirection><sep:intervalLength>60</sep:intervalLength><sep:kind>37</sep:kind><sep:phase>0</sep:phase><sep:powerOfTenMultiplier>0</sep:powerOfTenMultiplier><sep:uom>38</sep:uom></sep:ReadingType>
      </sep:MirrorMeterReading>
    </sep:MirrorUsagePoint>`;
    const mup: MirrorUsagePoint = decodeAs(xml, "MirrorUsagePoint");
    expect(mup.mRID).toBe("0A1B2C3D4E5F60718293A4B500032473");
    expect(mup.roleFlags).toBe("0049");
    expect(mup.deviceLFDI).toBe("0000000000000000000000000000000000032473");
    expect(mup.MirrorMeterReading).toHaveLength(1);
    expect(mup.MirrorMeterReading?.[0]?.Reading).toEqual({ timePeriod: { duration: 60, start: 1764230340 }, value: -1234 });
    expect(mup.MirrorMeterReading?.[0]?.ReadingType?.uom).toBe(38);
  });

  it("writes a ConnectionPoint in the csipaus namespace and reads the legacy id too", () => {
    const xml = encodeSep("ConnectionPoint", { connectionPointId: "0000000001" });
    expect(xml).toContain("<csipaus:ConnectionPoint");
    expect(xml).toContain("<csipaus:connectionPointId>0000000001</csipaus:connectionPointId>");
    expect(decodeAs(xml, "ConnectionPoint")).toEqual({ connectionPointId: "0000000001" });
    const legacy = `<ConnectionPoint xmlns="https://csipaus.org/ns"><id>4102000001</id></ConnectionPoint>`;
    expect(decodeAs(legacy, "ConnectionPoint")).toEqual({ id: "4102000001" });
  });

  it("escapes and restores markup characters in text", () => {
    const xml = encodeSep("ResponseSet", { mRID: "01", description: "Import & export <limits>" });
    expect(xml).toContain("<description>Import &amp; export &lt;limits&gt;</description>");
    expect(decodeAs(xml, "ResponseSet").description).toBe("Import & export <limits>");
  });

  it("refuses malformed documents, wrong roots and values that do not fit the schema type", () => {
    expect(() => decodeSep("<EndDevice><sFDI>1</sFDI>")).toThrow(SepXmlError);
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><Time><currentTime>&b;</currentTime></Time>';
    expect(() => decodeSep(bomb)).toThrow(/document type declaration/);
    expect(() => decodeAs("<Time><currentTime>1</currentTime></Time>", "EndDevice")).toThrow(/Expected EndDevice, got Time/);
    expect(() => decodeAs("<Time><currentTime>soon</currentTime></Time>", "Time")).toThrow(/Time\/currentTime is not an integer/);
    expect(() =>
      decodeAs("<EndDevice><sFDI>1</sFDI><changedTime>1</changedTime><enabled>yes</enabled></EndDevice>", "EndDevice"),
    ).toThrow(/not a boolean/);
    const empty: EndDeviceList = decodeAs('<EndDeviceList xmlns="urn:ieee:std:2030.5:ns" all="0" results="0"/>', "EndDeviceList");
    expect(empty).toEqual({ all: 0, results: 0 });
  });

  it("writes child elements in the schema's order whatever the order of the object's keys", () => {
    const settings = encodeSep("DERSettings", {
      doeModesEnabled: "03",
      updatedTime: 1,
      setMaxW: { value: 5, multiplier: 3 },
      setGradW: 27,
      modesEnabled: "00000001",
    });
    const tags = [...settings.matchAll(/<([\w:]+)>/g)].map((m) => m[1]);
    expect(tags).toEqual([
      "modesEnabled",
      "setGradW",
      "setMaxW",
      "multiplier",
      "value",
      "updatedTime",
      "csipaus:doeModesEnabled",
    ]);
    const fsa = encodeSep("FunctionSetAssignments", {
      mRID: "0A",
      description: "FSA",
      DERProgramListLink: { href: "/derp", all: 1 },
      TimeLink: { href: "/tm" },
    });
    expect(fsa.indexOf("<TimeLink")).toBeLessThan(fsa.indexOf("<mRID>"));
    const control = encodeSep("DERControl", {
      DERControlBase: { opModExpLimW: { value: 1, multiplier: 0 }, opModEnergize: true, rampTms: 100 },
      interval: { start: 10, duration: 5 },
      EventStatus: { potentiallySuperseded: false, dateTime: 1, currentStatus: 0 },
      creationTime: 1,
      mRID: "0B",
    });
    const order = [...control.matchAll(/<([\w:]+)>/g)].map((m) => m[1]);
    expect(order).toEqual([
      "mRID",
      "creationTime",
      "EventStatus",
      "currentStatus",
      "dateTime",
      "potentiallySuperseded",
      "interval",
      "duration",
      "start",
      "DERControlBase",
      "opModEnergize",
      "rampTms",
      "csipaus:opModExpLimW",
      "multiplier",
      "value",
    ]);
  });
});
