import type { ActiveControl } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlApplier } from "../../src/modules/grid/control-applier.ts";
import { createControlDelivery } from "../../src/modules/grid/control-delivery.ts";
import type { DeviceTake } from "../../src/modules/grid/event-responses.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

const limit: ActiveControl = {
  control: { opModExpLimW: { value: 3, multiplier: 3 } },
  source: { kind: "event", mrid: "EVENT-FENCED", programMrid: "P", primacy: 1 },
};

// The grid client hands each site's control to the applier, which may wait a while for the
// device's own values: the lease can be taken over meanwhile. The device's writes are recorded
// only while the lease the control came under is still held.
describe("grid controls applied under a lease taken over", () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(() => runtime?.close());

  const deviceState = async (deviceId: number) => {
    const writes = await runtime.db.query<{ state: string }>("SELECT state FROM device_write WHERE device_id = $1", [deviceId]);
    const device = await runtime.db.query<{ vpp: boolean }>("SELECT vpp_controlled AS vpp FROM device WHERE id = $1", [deviceId]);
    return { writes: writes.rows.map((w) => w.state), underGrid: device.rows[0]?.vpp };
  };

  it("records no write for the device under the old token, and does under the current one", async () => {
    const devices = [
      await registerDevice(runtime.db, { sn: uniqueSerial("GFA"), phaseType: 2 }),
      await registerDevice(runtime.db, { sn: uniqueSerial("GFB"), phaseType: 2 }),
    ];
    await runtime.db.query(
      "INSERT INTO job_lease (job, holder, token, expires_at) VALUES ('grid', 'a', 1, now() + interval '1 hour')",
    );
    const applier = createControlApplier({
      db: runtime.db,
      writer: runtime.app.deviceWriter,
      requests: runtime.telemetry.requests,
      queueTtlMs: 60_000,
      ownValueWaitMs: 0,
    });
    const warnings: string[] = [];
    const delivery = createControlDelivery({
      apply: applier.applyEffectiveControl,
      log: { info() {}, error() {}, warn: (_: object, message: string) => void warnings.push(message) },
    });
    const takes: DeviceTake[] = [];
    // Another console took the lease over after the ttl, while this one was held up.
    await runtime.db.query("UPDATE job_lease SET holder = 'b', token = 2 WHERE job = 'grid'");
    for (const d of devices) delivery.deliver(1, d.id, limit, (take) => takes.push(take), { job: "grid", token: 1 });
    await delivery.settled();
    for (const d of devices) expect(await deviceState(d.id)).toEqual({ writes: [], underGrid: false });
    expect(takes).toEqual([]);
    // One warning for the lease, not one per device.
    expect(warnings).toHaveLength(1);

    // The console now holding the lease applies it: offline, the write waits in the device's queue.
    for (const d of devices) delivery.deliver(1, d.id, limit, (take) => takes.push(take), { job: "grid", token: 2 });
    await delivery.settled();
    for (const d of devices) expect(await deviceState(d.id)).toEqual({ writes: ["queued"], underGrid: true });
    expect(takes.map((t) => t.outcome)).toEqual(["queued", "queued"]);
    expect(warnings).toHaveLength(1);
  });
});
