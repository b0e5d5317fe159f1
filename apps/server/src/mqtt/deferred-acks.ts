import type { MqttClient } from "mqtt";

type Packet = { cmd: string; messageId?: number };
type Send = (packet: Packet, cb?: (error?: Error) => void, cbStorePut?: () => void, noStore?: boolean) => void;
// mqtt.js keeps _sendPacket private; it is the one place every outgoing PUBACK passes.
type WithSend = { _sendPacket: Send };

/**
 * Acknowledges QoS 1 messages only when their handling is durable. mqtt.js sends a PUBACK as soon
 * as the message event returns and works through incoming packets one at a time, so holding the
 * PUBACK inside a handler would stall the connection. Instead the PUBACK is caught on its way out
 * and released when the message's promise resolves — in the order the messages arrived, as MQTT
 * asks — while mqtt.js moves on to the next packet at once.
 *
 * PUBACKs held for a connection that has since dropped are discarded: the broker redelivers those
 * messages on the new connection (with the same ids), and they are acknowledged then.
 */
export function holdAcknowledgements(client: MqttClient) {
  const target = client as unknown as WithSend;
  const send: Send = target._sendPacket.bind(client);
  let generation = 0;
  // Promises by message id for the current connection, and PUBACKs waiting in arrival order.
  const held = new Map<number, Promise<void>>();
  // A queue with a moving head: shifting a 60,000-entry array per acknowledgement would cost
  // more than the messages themselves.
  let queue: { packet: Packet; done: boolean; ok: boolean; generation: number }[] = [];
  let head = 0;

  const drain = () => {
    while (head < queue.length && queue[head]?.done) {
      const entry = queue[head++] as (typeof queue)[number];
      if (entry.ok && entry.generation === generation && client.connected) send(entry.packet);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  target._sendPacket = (packet, cb, cbStorePut, noStore) => {
    const promise = packet.cmd === "puback" && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
    if (!promise) return send(packet, cb, cbStorePut, noStore);
    held.delete(packet.messageId as number);
    const entry = { packet, done: false, ok: false, generation };
    queue.push(entry);
    // One reaction per message (not then + finally): this runs for every frame.
    promise.then(
      () => {
        entry.ok = true;
        entry.done = true;
        drain();
      },
      () => {
        entry.done = true;
        drain();
      },
    );
    // Let mqtt.js carry on with the next packet now.
    cb?.();
  };

  client.on("close", () => {
    generation++;
    held.clear();
    queue = [];
    head = 0;
  });

  return {
    /** Registers the promise whose resolution acknowledges `packet`. */
    hold(packet: { messageId?: number | undefined }, promise: Promise<void>) {
      if (packet.messageId !== undefined) held.set(packet.messageId, promise);
    },
  };
}
