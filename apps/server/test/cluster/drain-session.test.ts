import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, type MqttBus } from "../../src/mqtt/bus.ts";
import { MOSQUITTO, type OwnMosquitto, ownMosquitto } from "../helpers/mosquitto.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * MqttBus.drainSession on a Mosquitto of the test's own: a console process (the bus) takes over the
 * persistent session of another that was killed, stores what the broker kept for it, and ends that
 * session, after which the shared subscription's messages all come to the living.
 */
describe.skipIf(!MOSQUITTO)("draining the broker session of a killed process", () => {
  let broker: OwnMosquitto;
  let bus: MqttBus;
  let publisher: mqtt.MqttClient;
  const handled: string[] = [];
  const group = `drain-${process.pid}`;
  beforeAll(async () => {
    broker = await ownMosquitto({ persistence: false });
    bus = await connectBus({
      url: broker.url,
      clientId: `${group}-alive`,
      connectTimeoutMs: 5000,
      sharedGroup: group,
      persistentSession: true,
      sessionExpiryS: 600,
    });
    await bus.subscribe("ess/v1/+/telemetry", async (topic, payload) => {
      await pause(5);
      handled.push(`${topic.split("/")[2]}:${payload.toString()}`);
    });
    publisher = await mqtt.connectAsync(broker.url, { clientId: `${group}-device` });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await bus?.close();
    await broker?.stop("SIGTERM");
  });

  const publish = async (from: number, count: number) => {
    for (let i = from; i < from + count; i++) await publisher.publishAsync("ess/v1/DEV1/telemetry", String(i), { qos: 1 });
    await pause(300);
  };

  it("stores what the broker kept for the dead process, then the living get every message", async () => {
    // The other process: same group, persistent session, killed without a word.
    const dead = await mqtt.connectAsync(broker.url, {
      clientId: `${group}-dead`,
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: 600 },
      reconnectPeriod: 0,
    });
    await dead.subscribeAsync(`$share/${group}/ess/v1/+/telemetry`, { qos: 1 });
    dead.stream.destroy();
    await pause(300);

    await publish(0, 20);
    // Mosquitto sets aside part of the shared messages for the dead session.
    const heard = handled.length;
    expect(heard).toBeLessThan(20);

    const drained = await bus.drainSession(`${group}-dead`, { quietMs: 300, maxMs: 10_000 });
    expect(drained).toBe(20 - heard);
    expect(new Set(handled)).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `DEV1:${i}`)));

    // The session is ended: nothing more is set aside for it.
    await publish(20, 20);
    expect(handled.filter((h) => Number(h.split(":")[1]) >= 20)).toHaveLength(20);
  });
});
