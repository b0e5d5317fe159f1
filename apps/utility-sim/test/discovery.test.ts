import { lfdiWithPen, sfdiFromLfdi } from "@ess/domain/grid/identity.ts";
import { normaliseNmi } from "@ess/domain/grid/nmi.ts";
import { decodeAs, encodeSep } from "@ess/sep2";
import { identityOfCertificate } from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sep, startTestUtility, type TestUtility } from "./helpers.ts";

const NMI = normaliseNmi("4102000001") as string;

describe("utility server: discovery and registration", () => {
  let utility: TestUtility;
  beforeAll(async () => {
    utility = await startTestUtility();
  });
  afterAll(() => utility?.sim.close());

  it("leads a client from DeviceCapability through the EndDevice list to its out-of-band EndDevice", async () => {
    const siteLfdi = lfdiWithPen("00000000000000000000000000000031", 32473);
    const registered = utility.sim.control.registerEndDevice({
      lfdi: siteLfdi,
      aggregatorLfdi: utility.aggregatorLfdi,
      nmi: NMI,
      pin: 111115,
    });

    const dcap = await sep(utility, { path: "/dcap" });
    expect(dcap.status).toBe(200);
    expect(dcap.contentType).toBe("application/sep+xml");
    const capability = decodeAs(dcap.body, "DeviceCapability");
    expect(capability.pollRate).toBe(300);
    const edevHref = capability.EndDeviceListLink?.href as string;

    const list = decodeAs((await sep(utility, { path: `${edevHref}?s=0&l=10` })).body, "EndDeviceList");
    expect(list.all).toBe(2);
    // The aggregator's own EndDevice comes first, then its sites.
    expect(list.EndDevice?.[0]).toMatchObject({ href: "/edev/0", lFDI: utility.aggregatorLfdi });
    const site = list.EndDevice?.[1];
    expect(site).toMatchObject({ href: `/edev/${registered.id}`, lFDI: siteLfdi, sFDI: sfdiFromLfdi(siteLfdi) });

    const device = decodeAs((await sep(utility, { path: site?.href as string })).body, "EndDevice");
    const rg = decodeAs((await sep(utility, { path: device.RegistrationLink?.href as string })).body, "Registration");
    expect(rg.pIN).toBe(111115);
    const cp = decodeAs((await sep(utility, { path: device.ConnectionPointLink?.href as string })).body, "ConnectionPoint");
    expect(cp.connectionPointId).toBe(NMI);
    const ders = decodeAs((await sep(utility, { path: `${device.DERListLink?.href}?l=5` })).body, "DERList");
    expect(ders.DER?.[0]?.DERSettingsLink?.href).toBe(`/edev/${registered.id}/der/1/derg`);
    const tm = decodeAs((await sep(utility, { path: "/tm" })).body, "Time");
    expect(Math.abs(tm.currentTime - Date.now() / 1000)).toBeLessThan(5);
  });

  it("pages the EndDevice list with s and l, one member when l is missing", async () => {
    for (const n of ["41", "42", "43"])
      utility.sim.control.registerEndDevice({
        lfdi: lfdiWithPen(n.padStart(32, "0"), 32473),
        aggregatorLfdi: utility.aggregatorLfdi,
      });
    const all = decodeAs((await sep(utility, { path: "/edev?s=0&l=100" })).body, "EndDeviceList");
    const second = decodeAs((await sep(utility, { path: "/edev?s=2&l=2" })).body, "EndDeviceList");
    expect(second.all).toBe(all.all);
    expect(second.results).toBe(2);
    expect(second.EndDevice?.map((d) => d.href)).toEqual(all.EndDevice?.slice(2, 4).map((d) => d.href));
    const first = decodeAs((await sep(utility, { path: "/edev" })).body, "EndDeviceList");
    expect(first.results).toBe(1);
    expect((await sep(utility, { path: "/edev?s=-1&l=2" })).status).toBe(400);
  });

  it("registers an EndDevice in band: 201 with its Location, listed and readable there", async () => {
    const lfdi = lfdiWithPen("0000ABCDEF0000ABCDEF0000ABCDEF00", 32473);
    const body = encodeSep("EndDevice", { lFDI: lfdi, sFDI: sfdiFromLfdi(lfdi), changedTime: 1_764_230_400 });
    const created = await sep(utility, { method: "POST", path: "/edev", body });
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/edev\/\d+$/);
    const device = await sep(utility, { path: created.location as string });
    // The identifiers come back exactly, leading zeros included.
    expect(device.body).toContain(`<lFDI>${lfdi}</lFDI>`);
    expect(decodeAs(device.body, "EndDevice").lFDI).toBe(lfdi);
    expect((await sep(utility, { method: "POST", path: "/edev", body })).status).toBe(409);
    const own = encodeSep("EndDevice", { lFDI: utility.aggregatorLfdi, sFDI: "0", changedTime: 0 });
    expect((await sep(utility, { method: "POST", path: "/edev", body: own })).status).toBe(403);
    const sameSfdi = encodeSep("EndDevice", {
      lFDI: lfdiWithPen("DD".padStart(32, "0"), 32473),
      sFDI: sfdiFromLfdi(lfdi),
      changedTime: 0,
    });
    expect((await sep(utility, { method: "POST", path: "/edev", body: sameSfdi })).status).toBe(409);
    const noLfdi = encodeSep("EndDevice", { sFDI: "0", changedTime: 0 });
    expect((await sep(utility, { method: "POST", path: "/edev", body: noLfdi })).status).toBe(400);
    expect((await sep(utility, { method: "POST", path: "/edev", body: "<EndDevice>" })).status).toBe(400);
  });

  it("takes the NMI on the ConnectionPoint, refuses an invalid one with 422 and gives it back", async () => {
    const created = await sep(utility, {
      method: "POST",
      path: "/edev",
      body: encodeSep("EndDevice", { lFDI: lfdiWithPen("CC".padStart(32, "0"), 32473), sFDI: "18", changedTime: 0 }),
    });
    const cp = `${created.location}/cp`;
    expect(decodeAs((await sep(utility, { path: cp })).body, "ConnectionPoint").connectionPointId).toBe("");
    expect(
      (await sep(utility, { method: "PUT", path: cp, body: encodeSep("ConnectionPoint", { connectionPointId: "4102000001X" }) }))
        .status,
    ).toBe(422);
    const put = await sep(utility, { method: "PUT", path: cp, body: encodeSep("ConnectionPoint", { connectionPointId: NMI }) });
    expect(put.status).toBe(201);
    expect(decodeAs((await sep(utility, { path: cp })).body, "ConnectionPoint").connectionPointId).toBe(NMI);
  });

  it("hides other aggregators' EndDevices and answers 404 for unknown paths", async () => {
    const other = await utility.newClient("other aggregator");
    const list = decodeAs((await sep(utility, { path: "/edev?l=50", client: other })).body, "EndDeviceList");
    expect(list.all).toBe(1);
    expect((await sep(utility, { path: "/edev/1", client: other })).status).toBe(404);
    expect((await sep(utility, { path: "/nowhere" })).status).toBe(404);
    const head = await sep(utility, { method: "HEAD", path: "/dcap" });
    expect([head.status, head.body, head.contentType]).toEqual([200, "", "application/sep+xml"]);
    expect((await sep(utility, { method: "DELETE", path: "/dcap" })).status).toBe(405);
  });

  it("shows a direct client (a device registered under its own certificate) its EndDevice without an id 0", async () => {
    const device = await utility.newClient("inverter");
    const lfdi = identityOfCertificate(device.certificatePem).lfdi;
    const registered = utility.sim.control.registerEndDevice({ lfdi });
    const list = decodeAs((await sep(utility, { path: "/edev?l=10", client: device })).body, "EndDeviceList");
    expect(list.EndDevice?.map((d) => [d.href, d.lFDI])).toEqual([[`/edev/${registered.id}`, lfdi]]);
    expect(
      decodeAs((await sep(utility, { path: "/dcap", client: device })).body, "DeviceCapability").EndDeviceListLink?.all,
    ).toBe(1);
    expect((await sep(utility, { path: "/edev/0", client: device })).status).toBe(404);
  });

  it("leaves the RegistrationLink out when the utility turns registration links off", async () => {
    utility.sim.control.setRegistrationLinks(false);
    const device = decodeAs((await sep(utility, { path: "/edev/1" })).body, "EndDevice");
    expect(device.RegistrationLink).toBeUndefined();
    expect((await sep(utility, { path: "/edev/1/rg" })).status).toBe(404);
    utility.sim.control.setRegistrationLinks(true);
  });
});
