import { X509Certificate } from "node:crypto";
import { isLfdi, isSfdi, sfdiFromLfdi } from "@ess/domain/grid/identity.ts";
import { describe, expect, it } from "vitest";
import {
  createCertificateAuthority,
  identityOfCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from "./certificates.ts";

describe("certificates", async () => {
  const ca = await createCertificateAuthority({ commonName: "Test utility CA" });
  const other = await createCertificateAuthority({ commonName: "Another CA" });

  it("makes a self-signed P-256 certificate authority", () => {
    const cert = new X509Certificate(ca.certificatePem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe("CN=Test utility CA");
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(ca.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it("issues server and client certificates that verify against their CA only", async () => {
    const server = await issueServerCertificate(ca, { commonName: "utility" });
    const client = await issueClientCertificate(ca, { commonName: "aggregator" });
    const authority = new X509Certificate(ca.certificatePem);
    const stranger = new X509Certificate(other.certificatePem);
    for (const issued of [server, client]) {
      const cert = new X509Certificate(issued.certificatePem);
      expect(cert.ca).toBe(false);
      expect(cert.verify(authority.publicKey)).toBe(true);
      expect(cert.verify(stranger.publicKey)).toBe(false);
    }
    expect(new X509Certificate(server.certificatePem).checkHost("localhost")).toBe("localhost");
    expect(new X509Certificate(server.certificatePem).checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(new X509Certificate(client.certificatePem).keyUsage).toContain("1.3.6.1.5.5.7.3.2");
  });

  it("gives each certificate its LFDI (SHA-256 of the DER, 40 hex digits) and SFDI", async () => {
    const client = await issueClientCertificate(ca, { commonName: "device" });
    const { lfdi, sfdi } = identityOfCertificate(client.certificatePem);
    const fingerprint = new X509Certificate(client.certificatePem).fingerprint256.replaceAll(":", "");
    expect(isLfdi(lfdi)).toBe(true);
    expect(lfdi).toBe(fingerprint.slice(0, 40));
    expect(sfdi).toBe(sfdiFromLfdi(lfdi));
    expect(isSfdi(sfdi)).toBe(true);
    const second = await issueClientCertificate(ca, { commonName: "device" });
    expect(identityOfCertificate(second.certificatePem).lfdi).not.toBe(lfdi);
  });
});
