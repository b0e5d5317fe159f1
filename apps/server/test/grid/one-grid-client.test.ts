import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { MOSQUITTO } from "../helpers/mosquitto.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { sharedBroker } from "../helpers/shared-broker.ts";
import { freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";
import { unreachableUtility } from "./unreachable-utility.ts";

// Two consoles on one database need a database server (PGlite is one process's alone) and a broker
// they share (the embedded one serves one console only).
describe.skipIf(TEST_DRIVER !== "postgres" || !MOSQUITTO)("the grid client in two consoles on one database", () => {
  let utility: Awaited<ReturnType<typeof unreachableUtility>>;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const consoles: Runtime[] = [];
  const closed = new Set<Runtime>();
  let env: Record<string, string>;
  let broker: Awaited<ReturnType<typeof sharedBroker>>;
  beforeAll(async () => {
    broker = await sharedBroker("grid-two");
    utility = await unreachableUtility("grid-two-");
    database = await freshDatabaseUrl();
    env = {
      DATABASE_URL: (database as NonNullable<typeof database>).url,
      ...utility.env,
      // Long enough that a console starting beside it on a loaded machine does not stall the holder.
      ESS_JOB_LEASE_TTL_MS: "6000",
    };
    consoles.push(await startTestRuntime({ ...env, ...broker.env() }));
    consoles.push(await startTestRuntime({ ...env, ...broker.env() }));
  });
  afterAll(async () => {
    for (const runtime of consoles) if (!closed.has(runtime)) await runtime.close().catch(() => {});
    await database?.drop();
    await broker?.stop();
    utility?.remove();
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
