import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOSQUITTO } from "../helpers/mosquitto.ts";
import { metric } from "../helpers/sim.ts";
import { startWatchedConsole, type WatchedConsole } from "../helpers/watched-console.ts";

describe.skipIf(!MOSQUITTO)("a stall that subscribing again does not cure", () => {
  let c: WatchedConsole;
  beforeAll(async () => {
    c = await startWatchedConsole("giveup", 2);
  });
  afterAll(() => c?.close());

  it("ends with the devices offline ESS_DEVICE_OFFLINE_AFTER_S after the re-subscription, not online for good", async () => {
    await c.startReporting();
    await expect.poll(c.onlineCount, { timeout: 5000 }).toBe(2);
    await c.tap.cutOff();
    await expect.poll(c.stalls, { timeout: 5000 }).toBe(1);
    // Right after the re-subscription nobody is silent yet.
    await c.runtime.telemetry.presence.sweep();
    expect(await c.onlineCount()).toBe(2);
    // Silence counts from the re-subscription: 10 s later (ESS_DEVICE_OFFLINE_AFTER_S) they are offline.
    await expect
      .poll(
        async () => {
          await c.runtime.telemetry.presence.sweep();
          return c.onlineCount();
        },
        { timeout: 16_000, interval: 1000 },
      )
      .toBe(0);
    // Nothing is known to report any more: no stall, ready again.
    await expect.poll(() => metric(c.runtime, "ess_ingest_stalled"), { timeout: 5000 }).toBe(0);
    expect((await c.readiness()).status).toBe("ready");
    expect(await c.stalls()).toBe(1);
  }, 25_000);
});
