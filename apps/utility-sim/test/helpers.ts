import { request } from "node:https";
import {
  type CertifiedKey,
  createCertificateAuthority,
  identityOfCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from "@ess/sep2/certificates.ts";
import type { SimClock } from "../src/clock.ts";
import { startUtilitySim, type UtilitySim } from "../src/server.ts";

/** A utility server on an ephemeral port with its CA, and a client (aggregator) certificate it trusts. */
export interface TestUtility {
  sim: UtilitySim;
  ca: CertifiedKey;
  aggregator: CertifiedKey;
  aggregatorLfdi: string;
  /** Issues another client certificate from the server's CA. */
  newClient(name: string): Promise<CertifiedKey>;
}

export async function startTestUtility(clock?: SimClock): Promise<TestUtility> {
  const ca = await createCertificateAuthority({ commonName: "Test utility CA" });
  const server = await issueServerCertificate(ca, { commonName: "utility" });
  const aggregator = await issueClientCertificate(ca, { commonName: "aggregator" });
  const sim = await startUtilitySim({
    tls: { ca: ca.certificatePem, cert: server.certificatePem, key: server.privateKeyPem },
    clock,
  });
  return {
    sim,
    ca,
    aggregator,
    aggregatorLfdi: identityOfCertificate(aggregator.certificatePem).lfdi,
    newClient: (name) => issueClientCertificate(ca, { commonName: name }),
  };
}

export interface SepReply {
  status: number;
  body: string;
  location?: string;
  contentType?: string;
}

export interface SepCall {
  method?: string;
  path: string;
  body?: string;
  /** Client certificate; null sends none. */
  client: CertifiedKey | null;
  /** CA the client trusts for the server (default the utility's). */
  ca: string;
}

/** One HTTPS request as a 2030.5 client makes it (fresh connection each time, bounded to 5 s). */
export function sep(
  utility: TestUtility,
  call: Omit<SepCall, "client" | "ca"> & Partial<Pick<SepCall, "client" | "ca">>,
): Promise<SepReply> {
  const client = call.client === undefined ? utility.aggregator : call.client;
  const url = new URL(call.path, utility.sim.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: call.method ?? "GET",
        ca: call.ca ?? utility.ca.certificatePem,
        cert: client?.certificatePem,
        key: client?.privateKeyPem,
        agent: false,
        timeout: 5_000,
        headers: { Accept: "application/sep+xml", ...(call.body ? { "Content-Type": "application/sep+xml" } : {}) },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            location: res.headers.location,
            contentType: res.headers["content-type"],
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("request timed out")));
    req.on("error", reject);
    req.end(call.body);
  });
}
