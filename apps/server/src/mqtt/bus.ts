import mqtt, { type IClientOptions, type MqttClient } from "mqtt";

export type MessageHandler = (topic: string, payload: Buffer) => void;

export interface MqttBus {
  isConnected(): boolean;
  /**
   * Subscribes to a filter. On an external broker the subscription is shared (`$share/group/…`)
   * so that several server processes split the devices' messages between them.
   */
  subscribe(filter: string, handler: MessageHandler): Promise<void>;
  publish(topic: string, payload: string | Buffer, options?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export class BrokerUnreachableError extends Error {
  readonly url: string;
  constructor(url: string, reason: string) {
    super(reason);
    this.url = url;
  }
}

function matches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

export async function connectBus(options: {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  clientId: string;
  connectTimeoutMs: number;
  sharedGroup?: string | undefined;
}): Promise<MqttBus> {
  const clientOptions: IClientOptions = {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    // MQTT 3.1.1: aedes speaks nothing newer, and shared subscriptions work on it in Mosquitto and EMQX.
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: options.connectTimeoutMs,
  };
  const client: MqttClient = mqtt.connect(options.url, clientOptions);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no answer within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      client.end(true);
      reject(new BrokerUnreachableError(options.url, error.message));
    };
    client.once("connect", () => {
      clearTimeout(timer);
      client.off("error", fail);
      resolve();
    });
    client.once("error", fail);
  });
  // After the first connect, mqtt.js reconnects by itself; errors are reported, never thrown.
  client.on("error", () => {});

  const handlers: { filter: string; handler: MessageHandler }[] = [];
  client.on("message", (topic, payload) => {
    for (const h of handlers) if (matches(h.filter, topic)) h.handler(topic, payload);
  });

  return {
    isConnected: () => client.connected,
    async subscribe(filter, handler) {
      handlers.push({ filter, handler });
      const wire = options.sharedGroup ? `$share/${options.sharedGroup}/${filter}` : filter;
      await client.subscribeAsync(wire, { qos: 1 });
    },
    async publish(topic, payload, publishOptions) {
      await client.publishAsync(topic, payload, { qos: publishOptions?.qos ?? 1, retain: publishOptions?.retain ?? false });
    },
    close: () => client.endAsync(),
  };
}
