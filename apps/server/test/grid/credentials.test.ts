import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority, identityOfCertificate, issueClientCertificate } from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { GridCredentialsError, loadGridCredentials } from "../../src/modules/grid/grid-credentials.ts";
import { startRuntime } from "../../src/runtime.ts";

describe("grid connection settings", () => {
  let dir: string;
  let files: { cert: string; key: string; otherKey: string; ca: string; junk: string };
  let lfdi: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "grid-cred-"));
    const ca = await createCertificateAuthority({ commonName: "CA" });
    const mine = await issueClientCertificate(ca, { commonName: "aggregator" });
    const other = await issueClientCertificate(ca, { commonName: "other" });
    lfdi = identityOfCertificate(mine.certificatePem).lfdi;
    files = {
      cert: join(dir, "c.pem"),
      key: join(dir, "k.pem"),
      otherKey: join(dir, "o.pem"),
      ca: join(dir, "ca.pem"),
      junk: join(dir, "j.pem"),
    };
    writeFileSync(files.cert, mine.certificatePem);
    writeFileSync(files.key, mine.privateKeyPem);
    writeFileSync(files.otherKey, other.privateKeyPem);
    writeFileSync(files.ca, ca.certificatePem);
    writeFileSync(files.junk, "not a certificate");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a matching certificate and key and knows the aggregator's LFDI", () => {
    const credentials = loadGridCredentials({ ESS_GRID_CERT: files.cert, ESS_GRID_KEY: files.key, ESS_GRID_CA: files.ca });
    expect(credentials.identity.lfdi).toBe(lfdi);
  });

  it.each([
    [
      "a key of another certificate",
      () => ({ ESS_GRID_KEY: files.otherKey }),
      /ESS_GRID_KEY=.* is not the private key of ESS_GRID_CERT=/,
    ],
    [
      "an unreadable file",
      () => ({ ESS_GRID_CERT: join(dir, "missing.pem") }),
      /ESS_GRID_CERT=.*missing\.pem cannot be read: ENOENT\./,
    ],
    ["a file that is no certificate", () => ({ ESS_GRID_CA: files.junk }), /ESS_GRID_CA=.* is not a PEM certificate\./],
  ])("refuses %s in one line", (_name, change, message) => {
    const settings = { ESS_GRID_CERT: files.cert, ESS_GRID_KEY: files.key, ESS_GRID_CA: files.ca, ...change() };
    expect(() => loadGridCredentials(settings)).toThrow(GridCredentialsError);
    expect(() => loadGridCredentials(settings)).toThrow(message);
  });

  it("refuses the server's start before anything opens when the key does not match", async () => {
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: join(dir, "data"),
      PORT: "0",
      MQTT_PORT: "0",
      ESS_GRID_DCAP_URL: "https://127.0.0.1:1/dcap",
      ESS_GRID_CERT: files.cert,
      ESS_GRID_KEY: files.otherKey,
      ESS_GRID_CA: files.ca,
    });
    await expect(startRuntime(config)).rejects.toThrow(/is not the private key of/);
  });

  it("takes PEN, participating sites and a default PIN from the environment, and refuses a PIN whose check digit is wrong", () => {
    expect(loadConfig({})).toMatchObject({ ESS_GRID_SITES: "au", ESS_GRID_PEN: 32473 });
    expect(loadConfig({ ESS_GRID_SITES: "all", ESS_GRID_PEN: "12345", ESS_GRID_PIN: "111115" })).toMatchObject({
      ESS_GRID_SITES: "all",
      ESS_GRID_PEN: 12345,
      ESS_GRID_PIN: "111115",
    });
    expect(() => loadConfig({ ESS_GRID_PIN: "111111" })).toThrow(/ESS_GRID_PIN="111111" is not valid/);
    expect(() => loadConfig({ ESS_GRID_DCAP_URL: "http://x/dcap" })).toThrow(/an https:\/\/ URL/);
  });
});
