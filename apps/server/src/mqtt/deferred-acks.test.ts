import { EventEmitter } from "node:events";
import type { MqttClient } from "mqtt";
import { describe, expect, it } from "vitest";
import { holdAcknowledgements } from "./deferred-acks.ts";

type Packet = { cmd: string; messageId?: number };

/**
 * The part of mqtt.js the acknowledgements go through: its private _sendPacket (what reaches the
 * socket is recorded with the connection it went out on), `connected`, `stream` and the close event.
 */
function fakeClient() {
  const client = Object.assign(new EventEmitter(), {
    connected: true,
    stream: { connection: 1 },
    wire: [] as string[],
    _sendPacket(packet: Packet, cb?: () => void) {
      // mqtt.js keeps what it cannot send while disconnected and sends it after reconnecting.
      client.wire.push(`${client.connected ? client.stream.connection : "queued"}:${packet.cmd}:${packet.messageId ?? ""}`);
      cb?.();
    },
  });
  return client;
}

/** What mqtt.js does with a QoS 1 message: the message event (the handler holds it), then its PUBACK. */
function deliver(
  client: ReturnType<typeof fakeClient>,
  acks: ReturnType<typeof holdAcknowledgements>,
  id: number,
  held?: Promise<void>,
) {
  if (held) acks.hold({ messageId: id }, held);
  let moved = false;
  client._sendPacket({ cmd: "puback", messageId: id }, () => {
    moved = true;
  });
  expect(moved).toBe(true); // mqtt.js goes on to the next packet at once
}

function later() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("held-back acknowledgements", () => {
  it("leave once the message is durable, in the order the messages arrived", async () => {
    const client = fakeClient();
    const acks = holdAcknowledgements(client as unknown as MqttClient);
    const [a, b] = [later(), later()];
    deliver(client, acks, 1, a.promise);
    deliver(client, acks, 2, b.promise);
    deliver(client, acks, 3); // handled on the spot, still behind 1 and 2
    b.resolve();
    await settle();
    expect(client.wire).toEqual([]);
    a.resolve();
    await settle();
    expect(client.wire).toEqual(["1:puback:1", "1:puback:2", "1:puback:3"]);
  });

  it("are never sent for a message whose handling failed (the broker delivers it again)", async () => {
    const client = fakeClient();
    const acks = holdAcknowledgements(client as unknown as MqttClient);
    const a = later();
    deliver(client, acks, 1, a.promise);
    deliver(client, acks, 2);
    a.reject(new Error("database down"));
    await settle();
    expect(client.wire).toEqual(["1:puback:2"]);
  });

  it("of a connection that dropped never go out on the next one, whose ids mean other messages", async () => {
    const client = fakeClient();
    const acks = holdAcknowledgements(client as unknown as MqttClient);
    const before = later();
    deliver(client, acks, 7, before.promise);
    // The connection drops; mqtt.js still works through a packet it had read from it.
    client.connected = false;
    client.emit("close");
    const late = later();
    deliver(client, acks, 8, late.promise);
    deliver(client, acks, 9);
    // Reconnected: the broker redelivers 7 and 8 and may give id 9 to another message.
    client.stream = { connection: 2 };
    client.connected = true;
    before.resolve();
    late.resolve();
    await settle();
    expect(client.wire).toEqual([]);
    const redelivered = later();
    deliver(client, acks, 7, redelivered.promise);
    redelivered.resolve();
    await settle();
    expect(client.wire).toEqual(["2:puback:7"]);
  });

  it("let other packets through untouched", () => {
    const client = fakeClient();
    holdAcknowledgements(client as unknown as MqttClient);
    client._sendPacket({ cmd: "subscribe", messageId: 4 });
    client._sendPacket({ cmd: "pingreq" });
    expect(client.wire).toEqual(["1:subscribe:4", "1:pingreq:"]);
  });
});
