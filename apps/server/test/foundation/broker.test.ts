import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueDeviceSecret } from "../../src/mqtt/device-credentials.ts";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

let runtime: Runtime;
const secrets: Record<string, string> = {};
const clients: MqttClient[] = [];

async function addDevice(sn: string) {
  const { rows } = await runtime.db.query<{ id: number }>("INSERT INTO device (tenant_id, sn) VALUES (1, $1) RETURNING id", [sn]);
  secrets[sn] = await issueDeviceSecret(runtime.db, rows[0]?.id as number);
}

function connect(clientId: string, username: string, password: string): Promise<MqttClient> {
  const client = mqtt.connect(runtime.brokerUrl, { clientId, username, password, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(client);
  return new Promise((resolve, reject) => {
    client.once("connect", () => resolve(client));
    client.once("error", reject);
  });
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  await addDevice("SNA0001");
  await addDevice("SNB0002");
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await runtime.close();
});

describe("embedded broker: each device only under its own serial number", () => {
  it("accepts a device with its own credentials and records that it was seen", async () => {
    const device = await connect("SNA0001", "SNA0001", secrets.SNA0001 as string);
    await device.publishAsync("ess/v1/SNA0001/telemetry", JSON.stringify({ v: 1, ts: Date.now(), values: {} }), { qos: 1 });
    await expect
      .poll(async () => (await runtime.db.query("SELECT last_seen_at FROM device WHERE sn = 'SNA0001'")).rows[0], {
        timeout: 5000,
      })
      .toMatchObject({ last_seen_at: expect.any(Date) });
  });

  it("refuses a wrong secret", async () => {
    await expect(connect("SNA0001", "SNA0001", "not-the-secret")).rejects.toThrow(/Bad username or password|Not authorized/);
  });

  it("refuses a client id that is not the device's serial number", async () => {
    await expect(connect("SNB0002", "SNA0001", secrets.SNA0001 as string)).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
  });

  it("refuses another device's secret", async () => {
    await expect(connect("SNB0002", "SNB0002", secrets.SNA0001 as string)).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
  });

  it("refuses a subscription outside the device's own topics", async () => {
    const device = await connect("SNA0001", "SNA0001", secrets.SNA0001 as string);
    // SUBACK 128 is MQTT's "failure"; the connection stays up for the device's own topics.
    await expect(device.subscribeAsync("ess/v1/SNB0002/#", { qos: 1 })).rejects.toMatchObject({ packet: { granted: [128] } });
    await expect(device.subscribeAsync("ess/v1/#", { qos: 1 })).rejects.toMatchObject({ packet: { granted: [128] } });
    const [own] = await device.subscribeAsync("ess/v1/SNA0001/cmd/#", { qos: 1 });
    expect(own?.qos).toBe(1);
    expect(device.connected).toBe(true);
  });

  it("drops a publication under another serial number, so it never reaches the server", async () => {
    const spy = await connect("SNB0002", "SNB0002", secrets.SNB0002 as string);
    const received: string[] = [];
    spy.on("message", (topic) => received.push(topic));
    await spy.subscribeAsync("ess/v1/SNB0002/#", { qos: 1 });
    const before = (await runtime.db.query("SELECT last_seen_at FROM device WHERE sn = 'SNB0002'")).rows[0];

    const intruder = await connect("SNA0001", "SNA0001", secrets.SNA0001 as string);
    const closed = new Promise<void>((resolve) => intruder.once("close", () => resolve()));
    intruder.publish("ess/v1/SNB0002/telemetry", JSON.stringify({ v: 1, ts: Date.now(), values: {} }), { qos: 1 });
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received).toEqual([]);
    expect((await runtime.db.query("SELECT last_seen_at FROM device WHERE sn = 'SNB0002'")).rows[0]).toEqual(before);
  });

  it("carries MQTT over WebSocket at /mqtt with the same rules", async () => {
    const wsUrl = `${runtime.url.replace(/^http/, "ws")}mqtt`;
    const ok = mqtt.connect(wsUrl, { clientId: "SNA0001", username: "SNA0001", password: secrets.SNA0001, reconnectPeriod: 0 });
    clients.push(ok);
    await new Promise<void>((resolve, reject) => {
      ok.once("connect", () => resolve());
      ok.once("error", reject);
    });
    const bad = mqtt.connect(wsUrl, { clientId: "SNA0001", username: "SNA0001", password: "wrong", reconnectPeriod: 0 });
    clients.push(bad);
    await expect(
      new Promise((resolve, reject) => {
        bad.once("connect", resolve);
        bad.once("error", reject);
      }),
    ).rejects.toThrow(/Bad username or password|Not authorized/);
  });
});
