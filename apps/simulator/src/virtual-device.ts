import mqtt, { type MqttClient } from "mqtt";

export interface DeviceIdentity {
  sn: string;
  secret: string;
}

export interface DeviceOptions {
  brokerUrl: string;
  intervalMs: number;
  /** Produces the values of one telemetry frame at time `at`. */
  sample: (at: Date) => Record<string, number>;
}

const topic = (sn: string, leaf: string) => `ess/v1/${sn}/${leaf}`;

/**
 * One simulated device: connects with its own credentials, announces itself online through a
 * retained status (with an `offline` last will), and publishes a telemetry frame every interval.
 */
export class VirtualDevice {
  readonly identity: DeviceIdentity;
  readonly options: DeviceOptions;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  framesSent = 0;

  constructor(identity: DeviceIdentity, options: DeviceOptions) {
    this.identity = identity;
    this.options = options;
  }

  async start(): Promise<void> {
    const { sn, secret } = this.identity;
    const client = mqtt.connect(this.options.brokerUrl, {
      clientId: sn,
      username: sn,
      password: secret,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      will: { topic: topic(sn, "status"), payload: Buffer.from("offline"), qos: 1, retain: true },
    });
    this.client = client;
    client.on("error", () => {}); // reconnects on its own; a refused login shows as no frames
    client.on("connect", () => {
      void client.publishAsync(topic(sn, "status"), "online", { qos: 1, retain: true }).catch(() => {});
    });
    await new Promise<void>((resolve, reject) => {
      client.once("connect", () => resolve());
      client.once("error", reject);
    });
    this.timer = setInterval(() => void this.publishFrame(), this.options.intervalMs);
    await this.publishFrame();
  }

  async publishFrame(): Promise<void> {
    if (!this.client?.connected) return;
    const at = new Date();
    const frame = { v: 1, sn: this.identity.sn, ts: at.getTime(), seq: this.seq++, values: this.options.sample(at) };
    await this.client
      .publishAsync(topic(this.identity.sn, "telemetry"), JSON.stringify(frame), { qos: 1 })
      .then(() => {
        this.framesSent++;
      })
      .catch(() => {});
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    if (!client) return;
    if (client.connected)
      await client.publishAsync(topic(this.identity.sn, "status"), "offline", { qos: 1, retain: true }).catch(() => {});
    await client.endAsync();
  }
}
