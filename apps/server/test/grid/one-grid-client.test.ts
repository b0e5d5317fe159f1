import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority, issueClientCertificate } from "@ess/sep2/certificates.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Two consoles on one database need a database server; PGlite is one process's alone.
describe.skipIf(TEST_DRIVER !== "postgres")("the grid client in two consoles on one database", () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const consoles: Runtime[] = [];
  const closed = new Set<Runtime>();
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "grid-two-"));
    const ca = await createCertificateAuthority({ commonName: "CA" });
    const mine = await issueClientCertificate(ca, { commonName: "aggregator" });
    writeFileSync(join(dir, "c.pem"), mine.certificatePem);
    writeFileSync(join(dir, "k.pem"), mine.privateKeyPem);
    writeFileSync(join(dir, "ca.pem"), ca.certificatePem);
    database = await freshDatabaseUrl();
    env = {
      DATABASE_URL: (database as NonNullable<typeof database>).url,
      ESS_GRID_DCAP_URL: `https://127.0.0.1:${await closedPort()}/dcap`,
      ESS_GRID_CERT: join(dir, "c.pem"),
      ESS_GRID_KEY: join(dir, "k.pem"),
      ESS_GRID_CA: join(dir, "ca.pem"),
      // Long enough that a console starting beside it on a loaded machine does not stall the holder.
      ESS_JOB_LEASE_TTL_MS: "6000",
    };
    consoles.push(await startTestRuntime(env));
    consoles.push(await startTestRuntime(env));
  });
  afterAll(async () => {
    for (const runtime of consoles) if (!closed.has(runtime)) await runtime.close().catch(() => {});
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs in one of them, and in the other once the first stops", { timeout: 20_000 }, async () => {
    const [first, second] = consoles as [Runtime, Runtime];
    expect(first.grid).not.toBeNull();
    expect(second.grid).toBeNull();
    const leads = async (runtime: Runtime) =>
      /ess_job_leader\{job="grid"\} 1/.test(await (await fetch(`${runtime.url}metrics`)).text());
    expect(await leads(first)).toBe(true);
    expect(await leads(second)).toBe(false);
    closed.add(first);
    await first.close();
    // A clean stop releases the lease: the other console starts its client at its next try.
    // Its next try comes within one renew interval (a third of the ttl).
    await waitUntil(() => second.grid !== null, 6000, "the second console's grid client");
    expect(await leads(second)).toBe(true);
  });
});
