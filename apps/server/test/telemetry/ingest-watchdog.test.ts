import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../helpers/accounts.ts";
import { MOSQUITTO } from "../helpers/mosquitto.ts";
import { metric } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";
import { startWatchedConsole, type WatchedConsole } from "../helpers/watched-console.ts";

const DEVICES = 3;

describe.skipIf(!MOSQUITTO)("a connected broker that delivers nothing", () => {
  let c: WatchedConsole;
  beforeAll(async () => {
    c = await startWatchedConsole("watchdog", DEVICES);
  });
  afterAll(() => c?.close());

  it("stays quiet while no device is online", async () => {
    // Registered devices that never reported, and nothing delivered for two stall periods.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await c.stalls()).toBe(0);
    expect(await c.readiness()).toEqual({ status: "ready", checks: { database: true, broker: true, ingest: true } });
  });

  it("notices the silence, tells administrators only, keeps the fleet online and heals by subscribing again", async () => {
    const { runtime, tap } = c;
    const admin = (await runtime.db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'admin'")).rows[0];
    const toAdmin = await c.reminders(await signIn(runtime.app), admin?.id as number);
    const operatorId = await createAccount(runtime.db, { username: `op${process.pid}`, password: "Passw0rd1" });
    const toOperator = await c.reminders(await signIn(runtime.app, `op${process.pid}`, "Passw0rd1"), operatorId);
    await c.startReporting();
    await expect.poll(c.onlineCount, { timeout: 5000 }).toBe(DEVICES);

    // The broker drops the console's subscriptions behind its back and answers its new ones
    // without delivering anything.
    await tap.cutOff();
    await expect.poll(c.stalls, { timeout: 5000 }).toBe(1);
    expect(await metric(runtime, "ess_ingest_stalled")).toBe(1);
    expect(await c.readiness()).toEqual({ status: "degraded", checks: { database: true, broker: true, ingest: false } });
    await expect.poll(() => toAdmin.filter((r) => r.system?.kind === "ingestStalled").length, { timeout: 5000 }).toBe(1);
    expect(toAdmin.find((r) => r.system)?.system).toMatchObject({ client: c.clientId, devices: DEVICES });
    // It keeps trying, every stall period, and it is still one stall.
    await expect
      .poll(() => metric(runtime, "ess_mqtt_resubscriptions_total", '{reason="silence",outcome="ok"}'), { timeout: 5000 })
      .toBeGreaterThan(1);
    expect(await c.stalls()).toBe(1);

    // The devices are not silent, the console is deaf: the timeout sweep leaves them online even
    // when their last message is long past.
    await runtime.db.query("UPDATE device SET last_seen_at = now() - interval '10 minutes' WHERE id = ANY($1::bigint[])", [
      c.devices.map((d) => d.id),
    ]);
    await runtime.telemetry.presence.sweep();
    expect(await c.onlineCount()).toBe(DEVICES);

    // The broker takes subscriptions again: the next attempt heals, readings flow again.
    tap.restore();
    const healedFrom = c.sentUpTo() + 1000;
    await expect.poll(() => c.storedFrom(healedFrom), { timeout: 5000 }).toBeGreaterThan(0);
    await expect.poll(() => metric(runtime, "ess_ingest_stalled"), { timeout: 5000 }).toBe(0);
    expect(await c.readiness()).toEqual({ status: "ready", checks: { database: true, broker: true, ingest: true } });
    await expect.poll(() => toAdmin.filter((r) => r.system?.kind === "ingestResumed").length, { timeout: 5000 }).toBe(1);
    expect(toOperator.filter((r) => r.system)).toEqual([]);
    expect(await c.stalls()).toBe(1);
  });
});
