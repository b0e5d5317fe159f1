import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeAs } from "@ess/sep2";
import { afterAll, describe, expect, it } from "vitest";
import { ensurePki } from "../src/pki.ts";
import { startUtilitySim } from "../src/server.ts";
import { sep } from "./helpers.ts";

describe("standalone certificates", async () => {
  const folder = await mkdtemp(join(tmpdir(), "utility-sim-pki-"));
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("makes the CA, server and aggregator files once and reuses them on the next start", async () => {
    const first = await ensurePki(folder);
    const again = await ensurePki(folder);
    expect(again.clientLfdi).toBe(first.clientLfdi);
    expect(await readFile(first.files.caCertificate, "utf8")).toBe(first.ca.certificatePem);
  });

  it("serves a client that uses the files as written", async () => {
    const pki = await ensurePki(folder);
    const sim = await startUtilitySim({
      tls: { ca: pki.ca.certificatePem, cert: pki.server.certificatePem, key: pki.server.privateKeyPem },
    });
    try {
      const client = {
        certificatePem: await readFile(pki.files.clientCertificate, "utf8"),
        privateKeyPem: await readFile(pki.files.clientKey, "utf8"),
      };
      const utility = {
        sim,
        ca: pki.ca,
        aggregator: client,
        aggregatorLfdi: pki.clientLfdi,
        newClient: () => Promise.reject(new Error("unused")),
      };
      const list = decodeAs((await sep(utility, { path: "/edev?l=1" })).body, "EndDeviceList");
      expect(list.EndDevice?.[0]?.lFDI).toBe(pki.clientLfdi);
    } finally {
      await sim.close();
    }
  });
});
