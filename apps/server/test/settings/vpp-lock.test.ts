import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  });
});
