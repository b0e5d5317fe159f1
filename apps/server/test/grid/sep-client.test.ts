import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import {
  type CertifiedKey,
  createCertificateAuthority,
  issueClientCertificate,
  issueServerCertificate,
} from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSepClient, GridHttpError, type SepExchange } from "../../src/modules/grid/sep-client.ts";

// A misbehaving utility: one path never answers, one answers without end, one answers an Error document.
describe("grid HTTPS client bounds", () => {
  let server: Server;
  let ca: CertifiedKey;
  let client: CertifiedKey;
  let url: string;
  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: "CA" });
    const own = await issueServerCertificate(ca, { commonName: "utility" });
    client = await issueClientCertificate(ca, { commonName: "aggregator" });
    server = createServer(
      { ca: ca.certificatePem, cert: own.certificatePem, key: own.privateKeyPem, requestCert: true, rejectUnauthorized: true },
      (request, response) => {
        if (request.url === "/silent") return; // never answers
        if (request.url === "/huge") {
          response.writeHead(200, { "Content-Type": "application/sep+xml" });
          response.write(`<Time xmlns="urn:ieee:std:2030.5:ns">${"x".repeat(4096)}`);
          response.end("</Time>");
          return;
        }
        response.writeHead(400, { "Content-Type": "application/sep+xml" });
        response.end('<Error xmlns="urn:ieee:std:2030.5:ns"><reasonCode>1</reasonCode></Error>');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/dcap`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const open = (exchanges: SepExchange[] = []) =>
    createSepClient({
      dcapUrl: url,
      cert: client.certificatePem,
      key: client.privateKeyPem,
      ca: ca.certificatePem,
      responseTimeoutMs: 300,
      maxBodyBytes: 1024,
      onExchange: (e) => exchanges.push(e),
    });

  it("gives up on an answer that does not come", async () => {
    const http = open();
    const started = Date.now();
    await expect(http.get("/silent", ["Time"])).rejects.toMatchObject({ name: "GridHttpError", status: 0 });
    expect(Date.now() - started).toBeLessThan(3_000);
    http.close();
  });

  it("refuses an answer larger than its bound", async () => {
    const http = open();
    await expect(http.get("/huge", ["Time"])).rejects.toThrow(/more than 1024 bytes/);
    http.close();
  });

  it("reports a refusal with its status and keeps the Error document it got", async () => {
    const exchanges: SepExchange[] = [];
    const http = open(exchanges);
    const error = await http.get("/refused", ["Time"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GridHttpError);
    expect((error as GridHttpError).status).toBe(400);
    expect(exchanges[0]).toMatchObject({ status: 400, resource: "Error", method: "GET", path: "/refused" });
    expect(exchanges[0]?.body).toContain("<reasonCode>1</reasonCode>");
    http.close();
  });
});
