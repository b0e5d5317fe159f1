import { lfdiWithPen, mridWithPen, sfdiFromLfdi } from "@ess/domain/grid/identity.ts";
import { decodeAs, encodeSep, type MirrorMeterReading, type MirrorUsagePoint } from "@ess/sep2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sep, startTestUtility, type TestUtility } from "./helpers.ts";

const SITE_LFDI = lfdiWithPen("00000000000000000000000000000A01", 32473);
const MUP_MRID = mridWithPen("000000000000000000000001", 32473);
const POWER_MRID = mridWithPen("000000000000000000000002", 32473);
const VOLTAGE_MRID = mridWithPen("000000000000000000000003", 32473);

function stream(mRID: string, description: string, uom: number, value?: number, start?: number): MirrorMeterReading {
  return {
    mRID,
    description,
    Reading: value === undefined ? undefined : { timePeriod: { duration: 60, start: start ?? 1_764_230_340 }, value },
    ReadingType: {
      accumulationBehaviour: 12,
      dataQualifier: 2,
      flowDirection: 1,
      intervalLength: 60,
      kind: 37,
      phase: 0,
      powerOfTenMultiplier: 0,
      uom,
    },
  };
}

const SITE_MUP: MirrorUsagePoint = {
  mRID: MUP_MRID,
  description: "Site",
  roleFlags: "0049",
  serviceCategoryKind: 0,
  status: 1,
  deviceLFDI: SITE_LFDI,
  MirrorMeterReading: [stream(POWER_MRID, "Site active power", 38), stream(VOLTAGE_MRID, "Site voltage", 29)],
};

describe("utility server: metering mirror, DER descriptions, responses", () => {
  let utility: TestUtility;
  let edev: number;
  beforeAll(async () => {
    utility = await startTestUtility();
    const created = await sep(utility, {
      method: "POST",
      path: "/edev",
      body: encodeSep("EndDevice", { lFDI: SITE_LFDI, sFDI: sfdiFromLfdi(SITE_LFDI), changedTime: 0 }),
    });
    edev = Number(created.location?.split("/").pop());
  });
  afterAll(() => utility?.sim.close());

  it("creates a MirrorUsagePoint (201 + Location) and answers a repeated mRID with the same Location", async () => {
    const created = await sep(utility, { method: "POST", path: "/mup", body: encodeSep("MirrorUsagePoint", SITE_MUP) });
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/mup\/\d+$/);
    const again = await sep(utility, { method: "POST", path: "/mup", body: encodeSep("MirrorUsagePoint", SITE_MUP) });
    expect(again.status).toBe(204);
    expect(again.location).toBe(created.location);
    const mup = decodeAs((await sep(utility, { path: created.location as string })).body, "MirrorUsagePoint");
    expect(mup.postRate).toBe(60);
    expect(mup.mRID).toBe(MUP_MRID);
    expect(mup.deviceLFDI).toBe(SITE_LFDI);
    expect(mup.MirrorMeterReading?.map((m) => m.mRID)).toEqual([POWER_MRID, VOLTAGE_MRID]);
    const list = decodeAs((await sep(utility, { path: "/mup?s=0&l=10" })).body, "MirrorUsagePointList");
    expect(list.all).toBe(1);
  });

  it("refuses a MirrorUsagePoint for an EndDevice that is not the caller's", async () => {
    const foreign = {
      ...SITE_MUP,
      mRID: mridWithPen("0000000000000000000000FF", 32473),
      deviceLFDI: lfdiWithPen("FF".padStart(32, "0"), 32473),
    };
    expect((await sep(utility, { method: "POST", path: "/mup", body: encodeSep("MirrorUsagePoint", foreign) })).status).toBe(403);
  });

  it("records the readings posted to a MirrorUsagePoint, identifiers kept as sent", async () => {
    const location = (await sep(utility, { method: "POST", path: "/mup", body: encodeSep("MirrorUsagePoint", SITE_MUP) }))
      .location as string;
    const one = { mRID: POWER_MRID, Reading: { timePeriod: { duration: 60, start: 1_764_230_400 }, value: -1500 } };
    expect((await sep(utility, { method: "POST", path: location, body: encodeSep("MirrorMeterReading", one) })).status).toBe(201);
    const both = {
      all: 2,
      results: 2,
      MirrorMeterReading: [
        stream(POWER_MRID, "Site active power", 38, -1400, 1_764_230_460),
        stream(VOLTAGE_MRID, "Site voltage", 29, 241, 1_764_230_460),
      ],
    };
    expect((await sep(utility, { method: "POST", path: location, body: encodeSep("MirrorMeterReadingList", both) })).status).toBe(
      201,
    );
    const unknown = { mRID: mridWithPen("000000000000000000000099", 32473), Reading: { value: 1 } };
    expect((await sep(utility, { method: "POST", path: location, body: encodeSep("MirrorMeterReading", unknown) })).status).toBe(
      400,
    );

    const readings = utility.sim.control.readings();
    expect(readings.map((r) => [r.mmrMrid, r.reading.value, r.reading.timePeriod?.start])).toEqual([
      [POWER_MRID, -1500, 1_764_230_400],
      [POWER_MRID, -1400, 1_764_230_460],
      [VOLTAGE_MRID, 241, 1_764_230_460],
    ]);
    expect(readings[2]).toMatchObject({
      mupMrid: MUP_MRID,
      deviceLFDI: SITE_LFDI,
      roleFlags: "0049",
      description: "Site voltage",
      readingType: { uom: 29 },
    });
    expect(utility.sim.control.requests({ method: "POST", path: "/mup/*" }).map((r) => r.status)).toEqual([201, 201, 400]);
  });

  it("stores the DER descriptions a client writes and gives them back", async () => {
    const base = `/edev/${edev}/der/1`;
    expect((await sep(utility, { path: `${base}/derg` })).status).toBe(404);
    const settings = encodeSep("DERSettings", {
      setGradW: 27,
      setMaxW: { multiplier: 3, value: 5 },
      updatedTime: 1_764_230_400,
      doeModesEnabled: "0F",
    });
    expect((await sep(utility, { method: "PUT", path: `${base}/derg`, body: settings })).status).toBe(204);
    const capability = encodeSep("DERCapability", {
      modesSupported: "00500040",
      rtgMaxW: { multiplier: 3, value: 5 },
      type: 83,
      doeModesSupported: "0F",
    });
    expect((await sep(utility, { method: "PUT", path: `${base}/dercap`, body: capability })).status).toBe(204);
    const status = encodeSep("DERStatus", {
      genConnectStatus: { dateTime: 1_764_230_400, value: "01" },
      readingTime: 1_764_230_400,
    });
    expect((await sep(utility, { method: "POST", path: `${base}/ders`, body: status })).status).toBe(204);
    const read = decodeAs((await sep(utility, { path: `${base}/derg` })).body, "DERSettings");
    expect(read).toMatchObject({
      href: `${base}/derg`,
      setGradW: 27,
      setMaxW: { multiplier: 3, value: 5 },
      doeModesEnabled: "0F",
    });
    expect(utility.sim.control.endDevices().find((d) => d.id === edev)?.der.status?.genConnectStatus?.value).toBe("01");
    expect((await sep(utility, { method: "PUT", path: `${base}/derg`, body: capability })).status).toBe(400);
    const reconnected = encodeSep("DERStatus", {
      genConnectStatus: { dateTime: 1_764_230_460, value: "07" },
      readingTime: 1_764_230_460,
    });
    await sep(utility, { method: "PUT", path: `${base}/ders`, body: reconnected });
    const statuses = utility.sim.control.derWrites().filter((w) => w.kind === "status");
    expect(statuses.map((w) => (w.value as { genConnectStatus?: { value: string } }).genConnectStatus?.value)).toEqual([
      "01",
      "07",
    ]);
    expect(utility.sim.control.requests({ method: "PUT", path: "/edev/*/der/1/derg" })[0]?.contentType).toBe(
      "application/sep+xml",
    );
  });

  it("records Responses posted to the site_control response list", async () => {
    const path = `/edev/${edev}/rsps/site_control/rsp`;
    const response = encodeSep("DERControlResponse", {
      createdDateTime: 1_764_230_400,
      endDeviceLFDI: SITE_LFDI,
      status: 1,
      subject: "00000000000000000000000000032473",
    });
    const posted = await sep(utility, { method: "POST", path, body: response });
    expect(posted.status).toBe(201);
    expect(posted.location).toMatch(new RegExp(`^${path}/\\d+$`));
    expect(utility.sim.control.responses()).toMatchObject([
      {
        endDeviceId: edev,
        responseSet: "site_control",
        response: { status: 1, subject: "00000000000000000000000000032473", endDeviceLFDI: SITE_LFDI },
      },
    ]);
    const list = decodeAs((await sep(utility, { path: `${path}?l=10` })).body, "ResponseList");
    expect(list.Response?.[0]?.subject).toBe("00000000000000000000000000032473");
  });
});
