import { deviceWritesDestination } from "@ess/contracts";
import { Client, type IFrame } from "@stomp/stompjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { createAccount, signInTokens } from "../helpers/accounts.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

/** The live change records of a device (`/device/{id}/writes`) reach only callers who may see the device. */
describe("live write records and the data scope", () => {
  let runtime: Runtime;
  let owner: string;
  let stranger: string;
  let deviceId: number;

  const subscribe = async (token: string) => {
    const errors: IFrame[] = [];
    const client = new Client({
      brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
      connectHeaders: { Authorization: `Bearer ${token}`, "accept-language": "en-US" },
      reconnectDelay: 0,
      onStompError: (frame) => errors.push(frame),
    });
    await new Promise<void>((resolve) => {
      client.onConnect = () => resolve();
      client.activate();
    });
    client.subscribe(deviceWritesDestination(deviceId), () => {});
    return { client, errors };
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    const ownerId = await createAccount(runtime.db, {
      username: "writes-owner",
      password: "Owner2025x",
      userType: 2,
      roles: ["END_USER"],
    });
    await createAccount(runtime.db, { username: "writes-stranger", password: "Stranger2025x", userType: 2, roles: ["END_USER"] });
    owner = (await signInTokens(runtime.app, "writes-owner", "Owner2025x")).access_token;
    stranger = (await signInTokens(runtime.app, "writes-stranger", "Stranger2025x")).access_token;
    deviceId = (await registerDevice(runtime.db, { sn: uniqueSerial("WGW"), phaseType: 2 })).id;
    await runtime.db.query("UPDATE device SET owner_user_id = $2 WHERE id = $1", [deviceId, ownerId]);
  });
  afterAll(() => runtime.close());

  it("refuses a user outside the device's scope with an error, and lets its owner follow the records", async () => {
    const outsider = await subscribe(stranger);
    await expect.poll(() => outsider.errors.length, { timeout: 5000 }).toBe(1);
    expect(outsider.errors[0]?.headers.message).toBe("You do not have permission for this operation");
    expect(runtime.realtime.subscriberCount(deviceWritesDestination(deviceId))).toBe(0);
    await outsider.client.deactivate();

    const own = await subscribe(owner);
    await expect.poll(() => runtime.realtime.subscriberCount(deviceWritesDestination(deviceId))).toBe(1);
    expect(own.errors).toEqual([]);
    await own.client.deactivate();
  });
});
