import type { MqttClient } from "mqtt";

type Packet = { cmd: string; messageId?: number };
type Send = (packet: Packet, cb?: (error?: Error) => void, cbStorePut?: () => void, noStore?: boolean) => void;
// mqtt.js keeps _sendPacket private; it is the one place every outgoing PUBACK passes.
type WithSend = { _sendPacket: Send; stream: unknown };

const DONE = Promise.resolve();

/**
 * Acknowledges QoS 1 messages only when their handling is durable. mqtt.js sends a PUBACK as soon
 * as the message event returns and works through incoming packets one at a time, so holding the
 * PUBACK inside a handler would stall the connection. Instead every PUBACK is caught on its way
 * out and released when its message's promise resolves (at once for a message handled on the
 * spot) — in the order the messages arrived, as MQTT asks — while mqtt.js moves on to the next
 * packet at once.
 *
 * A PUBACK leaves only on the connection its message came on. Message ids belong to a connection:
 * after a reconnect the broker sends the unacknowledged messages again and may give an old id to
 * another message, so a late PUBACK of the old connection would acknowledge the wrong message.
 * Those are dropped (mqtt.js would otherwise queue them for the next connection); the broker
 * delivers their messages again, which are stored once (a repeated reading changes nothing) and
 * acknowledged then.
 */
export function holdAcknowledgements(client: MqttClient) {
  const target = client as unknown as WithSend;
  const send: Send = target._sendPacket.bind(client);
  // Promises by message id, set by the message event just before mqtt.js sends its PUBACK.
  const held = new Map<number, Promise<void>>();
  // A queue with a moving head: shifting a 60,000-entry array per acknowledgement would cost
  // more than the messages themselves.
  let queue: { packet: Packet; done: boolean; ok: boolean; stream: unknown }[] = [];
  let head = 0;

  const drain = () => {
    while (head < queue.length && queue[head]?.done) {
      const entry = queue[head++] as (typeof queue)[number];
      if (entry.ok && entry.stream === target.stream && client.connected) send(entry.packet);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  target._sendPacket = (packet, cb, cbStorePut, noStore) => {
    if (packet.cmd !== "puback" || packet.messageId === undefined) return send(packet, cb, cbStorePut, noStore);
    const promise = held.get(packet.messageId) ?? DONE;
    held.delete(packet.messageId);
    // mqtt.js still works through packets read before the connection dropped: their PUBACKs
    // have no connection left to go on.
    if (!client.connected) return cb?.();
    const entry = { packet, done: false, ok: false, stream: target.stream };
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
