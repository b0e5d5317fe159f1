import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlApplier } from "../../src/modules/grid/control-applier.ts";
import { createDeviceWriter } from "../../src/modules/settings/device-writer.ts";
import type { Runtime } from "../../src/runtime.ts";
import { bearer, createAccount, signInTokens } from "../helpers/accounts.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";

/** Spec §6: a device under the VPP operator's control cannot be operated by its user. */
describe("the VPP operator's control lock", () => {
  let runtime: Runtime;
  let admin: string;
  let owner: string;
  let deviceId: number;

  const post = async (token: string, url: string, payload: object) => {
    const r = await runtime.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...bearer(token), "accept-language": "en-US" },
    });
    return { status: r.statusCode, body: r.json() as { msg: string; data: { state?: string } | null } };
  };
  const writes = async () =>
    (await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device_write WHERE device_id = $1", [deviceId]))
      .rows[0]?.n;

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    admin = await signIn(runtime.app);
    const userId = await createAccount(runtime.db, {
      username: "vpp-owner",
      password: "Owner2025x",
      userType: 2,
      roles: ["END_USER"],
    });
    owner = (await signInTokens(runtime.app, "vpp-owner", "Owner2025x")).access_token;
    deviceId = (await registerDevice(runtime.db, { sn: uniqueSerial("VPP"), phaseType: 2 })).id;
    await runtime.db.query("UPDATE device SET owner_user_id = $2 WHERE id = $1", [deviceId, userId]);
  });
  afterAll(() => runtime.close());

  it("lets the owner change an unlocked device, refuses the locked one, and still lets the back office", async () => {
    const change = { deviceId, values: { TP_0X03_1028: 80 }, queueIfOffline: true };
    expect((await post(owner, "/admin/param/set/update", change)).body.data?.state).toBe("queued");
    await runtime.db.query("UPDATE device SET vpp_controlled = true WHERE id = $1", [deviceId]);
    const before = await writes();
    for (const [url, body] of [
      ["/admin/param/set/update", change],
      ["/admin/param/set/command", { deviceId, command: 1, queueIfOffline: true }],
    ] as const) {
      const refused = await post(owner, url, body);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe("The device is controlled by the VPP provider; this operation is not allowed");
    }
    expect(await writes()).toBe(before);
    expect((await post(admin, "/admin/param/set/update", change)).body.data?.state).toBe("queued");
    await runtime.db.query("UPDATE device SET vpp_controlled = false WHERE id = $1", [deviceId]);
  });

  it("under a grid control, refuses the owner only the settings the control holds, and every command", async () => {
    const writer = createDeviceWriter({
      db: runtime.db,
      requests: null,
      hub: runtime.realtime,
      events: null,
      log: runtime.app.log,
      options: { queueTtlMs: 60_000, bulkConcurrency: 5, sweepMs: 60_000 },
    });
    const applier = createControlApplier({ db: runtime.db, writer, requests: null, queueTtlMs: 60_000 });
    // An export limit: the grid holds the anti-backflow percentage and its switch.
    expect((await applier.applyEffectiveControl({ id: deviceId }, { opModExpLimW: { value: 2, multiplier: 3 } })).outcome).toBe(
      "queued",
    );
    const refusal = "The device is controlled by the VPP provider; this operation is not allowed";
    const contradicting = await post(owner, "/admin/param/set/update", {
      deviceId,
      values: { TP_0X03_76: 1, TP_0X03_1028: 90 },
      queueIfOffline: true,
    });
    expect(contradicting.status).toBe(400);
    expect(contradicting.body.msg).toBe(refusal);
    const command = await post(owner, "/admin/param/set/command", { deviceId, command: 0, queueIfOffline: true });
    expect(command.body.msg).toBe(refusal);
    const other = await post(owner, "/admin/param/set/update", { deviceId, values: { TP_0X03_76: 1 }, queueIfOffline: true });
    expect(other.body).toMatchObject({ data: { state: "queued" } });

    // The control ended: the whole device is the owner's again.
    await applier.applyEffectiveControl({ id: deviceId }, null);
    const free = await post(owner, "/admin/param/set/update", { deviceId, values: { TP_0X03_1028: 90 }, queueIfOffline: true });
    expect(free.body.data?.state).toBe("queued");
    await writer.stop();
  });
});
