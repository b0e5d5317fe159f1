import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_JOBS } from "../../src/cluster/console-jobs.ts";
import type { Runtime } from "../../src/runtime.ts";
import { MOSQUITTO } from "../helpers/mosquitto.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { sharedBroker } from "../helpers/shared-broker.ts";
import { freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";

/** The jobs a console leads, as its /metrics page shows them (ess_job_leader). */
async function leads(runtime: Runtime): Promise<Map<string, number>> {
  const text = await (await fetch(`${runtime.url}metrics`)).text();
  return new Map([...text.matchAll(/^ess_job_leader\{job="([^"]+)"\} (\d)$/gm)].map((m) => [m[1] as string, Number(m[2])]));
}

// Two consoles on one database need a database server (PGlite is one process's alone) and a broker
// they share (the embedded one serves one console only).
describe.skipIf(TEST_DRIVER !== "postgres" || !MOSQUITTO)(
  "the console's periodic jobs in two whole consoles on one database",
  () => {
    let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
    const consoles: Runtime[] = [];
    const closed = new Set<Runtime>();
    let broker: Awaited<ReturnType<typeof sharedBroker>>;
    beforeAll(async () => {
      database = await freshDatabaseUrl();
      broker = await sharedBroker("whole");
      // Long enough that a console starting beside it on a loaded machine does not stall the holder.
      const env = { DATABASE_URL: (database as NonNullable<typeof database>).url, ESS_JOB_LEASE_TTL_MS: "6000" };
      consoles.push(await startTestRuntime({ ...env, ...broker.env() }));
      consoles.push(await startTestRuntime({ ...env, ...broker.env() }));
    });
    afterAll(async () => {
      for (const runtime of consoles) if (!closed.has(runtime)) await runtime.close().catch(() => {});
      await database?.drop();
      await broker?.stop();
    });

    it("leads every job in the console that started first, and in the other once it stops", { timeout: 20_000 }, async () => {
      const [first, second] = consoles as [Runtime, Runtime];
      const before = [await leads(first), await leads(second)];
      for (const job of CONSOLE_JOBS) {
        expect(before[0]?.get(job), job).toBe(1);
        expect(before[1]?.get(job), job).toBe(0);
      }
      closed.add(first);
      await first.close();
      // A clean stop releases the leases: the other console takes them at its next try (a third of the ttl).
      await waitUntil(
        async () => {
          const now = await leads(second);
          return CONSOLE_JOBS.every((job) => now.get(job) === 1);
        },
        6000,
        "every job led by the second console",
      );
    });
  },
);

describe(`one console alone, on ${TEST_DRIVER}`, () => {
  it("leads every job from its start, through the same leases", { timeout: 60_000 }, async () => {
    const runtime = await startTestRuntime();
    try {
      const now = await leads(runtime);
      for (const job of CONSOLE_JOBS) expect(now.get(job), job).toBe(1);
      const { rows } = await runtime.db.query<{ job: string }>("SELECT job FROM job_lease WHERE expires_at > now() ORDER BY job");
      expect(rows.map((r) => r.job)).toEqual([...CONSOLE_JOBS].sort());
    } finally {
      await runtime.close();
    }
  });
});
