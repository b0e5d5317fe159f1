import { connect, createServer, type Socket } from "node:net";
import mqttPacket, { type Packet } from "mqtt-packet";

/** Cuts a byte stream into whole MQTT packets: fixed header byte, remaining length, body. */
function packetsOf(onPacket: (raw: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      let length = 0;
      let multiplier = 1;
      let i = 1;
      let byte = 128;
      while (byte & 128) {
        if (i >= pending.length) return;
        byte = pending[i++] as number;
        length += (byte & 127) * multiplier;
        multiplier *= 128;
      }
      if (pending.length < i + length) return;
      onPacket(pending.subarray(0, i + length));
      pending = pending.subarray(i + length);
    }
  };
}

/** Reads one whole packet (the parser emits synchronously). */
function reader() {
  const parser = mqttPacket.parser({ protocolVersion: 5 });
  let last: Packet | null = null;
  parser.on("packet", (p: Packet) => {
    last = p;
  });
  return (raw: Buffer): Packet | null => {
    last = null;
    parser.parse(raw);
    return last;
  };
}

const INJECTED_ID = 65_001;

export interface MqttTap {
  /** Where the console connects instead of the broker. */
  url: string;
  /** Messages the broker delivered and the console acknowledged (PUBACK on the same connection). */
  acknowledged: { topic: string; payload: Buffer }[];
  /** PUBACKs that answered no message in flight on their connection. */
  protocolErrors: string[];
  /** Console connections made so far. */
  connections(): number;
  /**
   * From now on the broker delivers nothing to the console while answering as if it did: the
   * console's shared subscriptions are removed behind its back and its new subscriptions are
   * answered (granted) by the tap without reaching the broker.
   */
  cutOff(): Promise<void>;
  /** Lets the console's subscriptions reach the broker again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay between the console and its broker that reads the MQTT packets passing through:
 * which deliveries the console acknowledged, and (for the watchdog) a way to make a connected
 * broker go silent for the console.
 */
export async function startMqttTap(brokerPort: number): Promise<MqttTap> {
  const acknowledged: MqttTap["acknowledged"] = [];
  const protocolErrors: string[] = [];
  const sockets = new Set<Socket>();
  let count = 0;
  let silenced = false;
  let current: { toBroker: Socket; filters: Set<string> } | null = null;

  const server = createServer((fromConsole) => {
    const id = ++count;
    const toBroker = connect({ port: brokerPort, host: "127.0.0.1" });
    sockets.add(fromConsole);
    sockets.add(toBroker);
    const inflight = new Map<number, { topic: string; payload: Buffer }>();
    const filters = new Set<string>();
    current = { toBroker, filters };
    const up = reader();
    const down = reader();
    const end = () => {
      fromConsole.destroy();
      toBroker.destroy();
      sockets.delete(fromConsole);
      sockets.delete(toBroker);
    };
    fromConsole.on("close", end).on("error", end);
    toBroker.on("close", end).on("error", end);

    fromConsole.on(
      "data",
      packetsOf((raw) => {
        const packet = up(raw);
        if (packet?.cmd === "subscribe") {
          for (const s of packet.subscriptions) filters.add(s.topic);
          if (silenced) {
            const suback = { cmd: "suback", messageId: packet.messageId, granted: packet.subscriptions.map((s) => s.qos) };
            fromConsole.write(mqttPacket.generate(suback as Packet, { protocolVersion: 5 }));
            return;
          }
        }
        if (packet?.cmd === "puback") {
          const delivered = inflight.get(packet.messageId as number);
          if (delivered) {
            inflight.delete(packet.messageId as number);
            acknowledged.push(delivered);
          } else protocolErrors.push(`connection ${id}: PUBACK ${packet.messageId} answers nothing in flight`);
        }
        toBroker.write(raw);
      }),
    );
    toBroker.on(
      "data",
      packetsOf((raw) => {
        const packet = down(raw);
        if (packet?.cmd === "publish" && packet.qos > 0) {
          inflight.set(packet.messageId as number, { topic: packet.topic, payload: Buffer.from(packet.payload as Buffer) });
        }
        if (packet?.cmd === "unsuback" && packet.messageId === INJECTED_ID) return;
        fromConsole.write(raw);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `mqtt://127.0.0.1:${port}`,
    acknowledged,
    protocolErrors,
    connections: () => count,
    async cutOff() {
      silenced = true;
      const link = current;
      const shared = [...(link?.filters ?? [])].filter((f) => f.startsWith("$share/"));
      if (!link || shared.length === 0) return;
      const unsubscribe = { cmd: "unsubscribe", messageId: INJECTED_ID, unsubscriptions: shared };
      link.toBroker.write(mqttPacket.generate(unsubscribe as Packet, { protocolVersion: 5 }));
    },
    restore() {
      silenced = false;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
