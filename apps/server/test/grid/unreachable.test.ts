import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { unreachableUtility } from "./unreachable-utility.ts";

describe("grid connection to an unreachable utility", () => {
  let runtime: Runtime;
  let utility: Awaited<ReturnType<typeof unreachableUtility>>;
  beforeAll(async () => {
    utility = await unreachableUtility("grid-down-");
    runtime = await startTestRuntime(utility.env);
  });
  afterAll(async () => {
    await runtime?.close();
    utility?.remove();
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
