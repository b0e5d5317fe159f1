import { createCertificateAuthority, issueClientCertificate } from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sep, startTestUtility, type TestUtility } from "./helpers.ts";

describe("utility server: who may talk to it", () => {
  let utility: TestUtility;
  beforeAll(async () => {
    utility = await startTestUtility();
  });
  afterAll(() => utility?.sim.close());

  it("refuses a client without a certificate in the TLS handshake", async () => {
    await expect(sep(utility, { path: "/dcap", client: null })).rejects.toThrow(/certificate required/);
    expect(utility.sim.control.requests({ path: "/dcap" })).toHaveLength(0);
  });

  it("refuses a client whose certificate another CA signed", async () => {
    const stranger = await createCertificateAuthority({ commonName: "Stranger CA" });
    const client = await issueClientCertificate(stranger, { commonName: "intruder" });
    // The handshake fails (Node resets the connection rather than sending an alert).
    await expect(sep(utility, { path: "/dcap", client })).rejects.toMatchObject({
      code: expect.stringMatching(/ECONNRESET|UNKNOWN_CA|BAD_CERTIFICATE|DECRYPT_ERROR/),
    });
    expect(utility.sim.control.requests()).toHaveLength(0);
  });

  it("knows a client by its certificate's LFDI", async () => {
    expect((await sep(utility, { path: "/dcap" })).status).toBe(200);
    expect(utility.sim.control.requests()).toMatchObject([
      { method: "GET", path: "/dcap", lfdi: utility.aggregatorLfdi, status: 200 },
    ]);
  });

  it("answers every request 500 during a communications outage, and normally once it is lifted", async () => {
    utility.sim.control.setOutage(true);
    expect((await sep(utility, { path: "/dcap" })).status).toBe(500);
    expect((await sep(utility, { path: "/edev?l=1" })).status).toBe(500);
    expect((await sep(utility, { method: "POST", path: "/mup", body: "<MirrorUsagePoint/>" })).status).toBe(500);
    utility.sim.control.setOutage(false);
    expect((await sep(utility, { path: "/dcap" })).status).toBe(200);
    expect(utility.sim.control.requests().map((r) => r.status)).toEqual([200, 500, 500, 500, 200]);
  });
});
