import { type DeviceLiveMessage, deviceLiveDestination } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { Client, type IFrame } from "@stomp/stompjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

let runtime: Runtime;
let token: string;
let device: VirtualDevice;
let deviceId: number;

beforeAll(async () => {
  runtime = await startTestRuntime();
  token = await signIn(runtime.app);
  const d = await registerDevice(runtime.db, { sn: uniqueSerial("LIVE"), phaseType: 2, timeZone: "Europe/Rome" });
  deviceId = d.id;
  device = await manualDevice(runtime, d, "three", "rome");
});
afterAll(async () => {
  await device.stop();
  await runtime.close();
});

/** The console's STOMP client on the gateway, subscribed to one destination. */
async function subscribe(destination: string) {
  const messages: DeviceLiveMessage[] = [];
  const errors: IFrame[] = [];
  const client = new Client({
    brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
    onStompError: (frame) => errors.push(frame),
  });
  await new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.activate();
  });
  client.subscribe(destination, (m) => messages.push(JSON.parse(m.body) as DeviceLiveMessage), { receipt: "sub-1" });
  return { client, messages, errors };
}

describe("live device data on the gateway at /act/ws", () => {
  it("pushes each new reading and online status changes of a device to its subscribers", async () => {
    const live = await subscribe(deviceLiveDestination(deviceId, "backOffice"));
    try {
      await expect.poll(() => runtime.realtime.subscriberCount(deviceLiveDestination(deviceId, "backOffice"))).toBe(1);
      // The device came online when it connected, before or after this subscription (presence
      // writes once a second): once it is, take it offline (as its last will would), so that the
      // reading below is a change to push.
      const stored = async () =>
        (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [deviceId])).rows[0]?.s;
      await expect.poll(stored, { timeout: 5000 }).toBe(1);
      await runtime.telemetry.presence.setStatus([deviceId], 0, "will");
      await expect.poll(() => live.messages.some((m) => m.onlineStatus === 0)).toBe(true);
      await device.publishFrame();
      await expect.poll(() => live.messages.find((m) => m.reading)).toBeDefined();
      const reading = live.messages.find((m) => m.reading)?.reading;
      expect(reading?.quantities.battery_soc).toBe(Math.round(device.brain.plant.state.soc));
      expect(reading?.quantities.load_power).toBe(device.brain.plant.state.loadW);
      // Back office sees the BMS temperature; consumers would not.
      expect(reading?.quantities).toHaveProperty("battery_temperature");
      // Presence writes what it heard once a second, so the status push can follow the reading by
      // more than a second on a busy machine.
      await expect.poll(() => live.messages.some((m) => m.onlineStatus === 1), { timeout: 5000 }).toBe(true);
    } finally {
      await live.client.deactivate();
    }
  });

  it("refuses another audience's destination and devices outside the caller's scope", async () => {
    for (const destination of [deviceLiveDestination(deviceId, "consumer"), deviceLiveDestination(999_999, "backOffice")]) {
      const live = await subscribe(destination);
      await expect.poll(() => live.errors.length, { timeout: 3000 }).toBe(1);
      await live.client.deactivate();
    }
    expect(runtime.realtime.subscriberCount()).toBe(0);
  });
});
