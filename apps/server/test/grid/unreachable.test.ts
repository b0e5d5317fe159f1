import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority, issueClientCertificate } from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("grid connection to an unreachable utility", () => {
  let runtime: Runtime;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "grid-down-"));
    const ca = await createCertificateAuthority({ commonName: "CA" });
    const mine = await issueClientCertificate(ca, { commonName: "aggregator" });
    writeFileSync(join(dir, "c.pem"), mine.certificatePem);
    writeFileSync(join(dir, "k.pem"), mine.privateKeyPem);
    writeFileSync(join(dir, "ca.pem"), ca.certificatePem);
    runtime = await startTestRuntime({
      ESS_GRID_DCAP_URL: `https://127.0.0.1:${await closedPort()}/dcap`,
      ESS_GRID_CERT: join(dir, "c.pem"),
      ESS_GRID_KEY: join(dir, "k.pem"),
      ESS_GRID_CA: join(dir, "ca.pem"),
    });
  });
  afterAll(async () => {
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts the console anyway and counts the failed attempts", async () => {
    expect(runtime.grid).not.toBeNull();
    const failures = async () => {
      const text = await (await fetch(`${runtime.url}metrics`)).text();
      return Number(/ess_grid_failures_total\{task="discovery"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    await waitUntil(async () => (await failures()) >= 1, 10_000, "a counted failure");
    const health = await fetch(`${runtime.url}metrics`);
    expect(health.status).toBe(200);
    const text = await health.text();
    expect(text).toMatch(/ess_grid_requests_total\{method="GET",status="0"\} [1-9]/);
    // The only process of this console holds the grid job's lease and runs the client.
    expect(text).toMatch(/ess_job_leader\{job="grid"\} 1/);
  });
});
