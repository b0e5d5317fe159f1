import {
  commandRequest,
  DEVICE_LEAVES,
  deviceTopic,
  encodeFrame,
  FRAME_FLAG_BUFFERED,
  otaRequest,
  pageReadRequest,
  parseDeviceTopic,
  settingWriteRequest,
} from "@ess/contracts";
import mqtt, { type MqttClient } from "mqtt";
import { DeviceBrain } from "./device-brain.ts";
import type { FleetDevice } from "./fleet-spec.ts";
import { httpPackageFetcher, OTA_RESULT, type PackageFetcher, runUpgrade } from "./ota.ts";
import type { PlantSpec } from "./plant.ts";
import { seededRandom } from "./random.ts";

export interface DeviceIdentity {
  sn: string;
  secret: string;
}

export interface DeviceOptions {
  brokerUrl: string;
  intervalMs: number;
  /** The device's clock, ms (tests run devices on a virtual clock). */
  clock?: () => number;
  faultsPerDay?: number;
  /** Connection drops per device and day: the link dies (the will fires) and returns later. */
  dropsPerDay?: number;
  /** Share of firmware upgrades that fail (with a realistic cause). */
  otaFailRate?: number;
  /** Pause between upgrade steps (flashing, verifying), ms. */
  otaStepMs?: number;
  /** How packages are fetched (default: HTTP from the order's address with the device's credentials). */
  fetchPackage?: PackageFetcher;
  /** No timer: the caller publishes frames with publishFrame(). */
  manual?: boolean;
}

const MAX_BUFFERED = 360;

/**
 * One simulated device on MQTT: connects with its own credentials and an `offline` last will,
 * publishes a telemetry frame every interval, answers page reads, applies setting writes and
 * commands (acknowledging or refusing them), runs firmware upgrades with progress, reports alarms,
 * and now and then loses its connection, keeping the frames it could not send for later.
 */
export class VirtualDevice {
  readonly identity: DeviceIdentity;
  readonly options: DeviceOptions;
  readonly brain: DeviceBrain;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  private stopped = false;
  private offlineUntil = 0;
  private readonly buffered: Buffer[] = [];
  private readonly random: () => number;
  upgrading = false;
  /** The order id the running upgrade reports under (a repeated order takes it over). */
  private upgrade: { id: number; sha256: string } | null = null;
  /** What each firmware slot (type, BCU, BMS) last installed, so a repeated order is answered at once. */
  readonly installed = new Map<string, { version: string; sha256: string }>();
  upgradesRun = 0;
  framesSent = 0;

  constructor(identity: DeviceIdentity, spec: PlantSpec, options: DeviceOptions) {
    this.identity = identity;
    this.options = options;
    this.random = seededRandom(spec.seed + 13);
    this.brain = new DeviceBrain(spec, this.now(), { faultsPerDay: options.faultsPerDay ?? 0, warmUp: !options.manual });
  }

  now(): number {
    return this.options.clock?.() ?? Date.now();
  }

  private topic(leaf: string) {
    return deviceTopic(this.identity.sn, leaf as never);
  }

  /**
   * Connects and starts reporting. Resolves once connected and subscribed — or, when the broker
   * is slow to answer, after `connectWaitMs`, carrying on in the background (frames are kept until
   * the connection comes up), so one slow login never stops a fleet.
   */
  async start(connectWaitMs = 30_000): Promise<void> {
    const connected = this.connect();
    if (!this.options.manual) {
      this.timer = setInterval(() => void this.publishFrame().catch(() => {}), this.options.intervalMs);
    }
    await Promise.race([connected, new Promise((resolve) => setTimeout(resolve, connectWaitMs).unref())]);
    if (!this.options.manual) await this.publishFrame().catch(() => {});
  }

  private connect(): Promise<void> {
    const { sn, secret } = this.identity;
    const client = mqtt.connect(this.options.brokerUrl, {
      clientId: sn,
      username: sn,
      password: secret,
      clean: true,
      keepalive: 30,
      resubscribe: false,
      reconnectPeriod: 2000 + Math.floor(this.random() * 3000),
      connectTimeout: 30_000,
      will: { topic: this.topic(DEVICE_LEAVES.status), payload: Buffer.from("offline"), qos: 1, retain: true },
    });
    this.client = client;
    client.on("error", () => {}); // mqtt.js reconnects on its own; a refused login shows as no frames
    client.on("message", (topic, payload) => void this.onCommand(topic, payload));
    return new Promise<void>((resolve) => {
      client.on("connect", () => {
        void (async () => {
          // A clean session forgets subscriptions: subscribe on every connection.
          await client.subscribeAsync(this.topic("cmd/#"), { qos: 1 }).catch(() => {});
          await client.publishAsync(this.topic(DEVICE_LEAVES.status), "online", { qos: 1, retain: true }).catch(() => {});
          resolve();
          await this.flushBuffered();
        })();
      });
    });
  }

  /**
   * Advances the device to `at` (default: its clock) and publishes one telemetry frame; resolves
   * when the broker acknowledged it. Offline, the frame is kept and sent after reconnecting.
   */
  async publishFrame(at = this.now()): Promise<void> {
    const events = this.brain.tick(at);
    for (const e of events) void this.send(DEVICE_LEAVES.alarm, JSON.stringify(e));
    this.maybeDrop(at);
    const frame = encodeFrame(
      { kind: "telemetry", ts: at, seq: this.seq++, requestId: 0, page: 0, flags: 0 },
      this.brain.telemetryBlocks(),
    );
    if (!this.client?.connected) {
      this.keep(frame);
      return;
    }
    try {
      await this.client.publishAsync(this.topic(DEVICE_LEAVES.telemetry), frame, { qos: 1 });
      this.framesSent++;
    } catch {
      this.keep(frame);
    }
  }

  /** Fault injection: raises `code` now and reports it (the alarm event, then the bits in every frame). */
  async injectFault(code: number, at = this.now()): Promise<void> {
    for (const e of this.brain.faults.inject(code, at)) await this.send(DEVICE_LEAVES.alarm, JSON.stringify(e));
  }

  /** Clears an injected fault now and reports it. */
  async clearFault(code: number, at = this.now()): Promise<void> {
    for (const e of this.brain.faults.clear(code, at)) await this.send(DEVICE_LEAVES.alarm, JSON.stringify(e));
  }

  private keep(frame: Buffer) {
    frame[3] = (frame[3] ?? 0) | FRAME_FLAG_BUFFERED;
    this.buffered.push(frame);
    if (this.buffered.length > MAX_BUFFERED) this.buffered.shift();
  }

  private async flushBuffered() {
    while (this.buffered.length > 0 && this.client?.connected) {
      const frame = this.buffered.shift() as Buffer;
      try {
        await this.client.publishAsync(this.topic(DEVICE_LEAVES.telemetry), frame, { qos: 1 });
        this.framesSent++;
      } catch {
        this.buffered.unshift(frame);
        return;
      }
    }
  }

  private async send(leaf: string, payload: string | Buffer) {
    await this.client?.publishAsync(this.topic(leaf), payload, { qos: 1 }).catch(() => {});
  }

  /** Now and then the link dies without a goodbye (the broker publishes the will) and returns later. */
  private maybeDrop(at: number) {
    const perDay = this.options.dropsPerDay ?? 0;
    if (perDay <= 0 || !this.client?.connected || this.offlineUntil > Date.now()) return;
    if (this.random() >= (perDay * this.options.intervalMs) / 86_400_000) return;
    void at;
    void this.restart(5_000 + this.random() * 55_000);
  }

  /** Drops the connection abruptly and reconnects after `downMs` (a reboot or a network outage). */
  async restart(downMs: number): Promise<void> {
    const old = this.client;
    this.client = null;
    this.offlineUntil = Date.now() + downMs;
    old?.end(true);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    if (!this.stopped) await this.connect();
  }

  private async onCommand(topic: string, payload: Buffer) {
    const leaf = parseDeviceTopic(topic)?.leaf;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString("utf8"));
    } catch {
      return;
    }
    const at = this.now();
    if (leaf === "cmd/read") {
      const req = pageReadRequest.safeParse(body);
      const blocks = req.success ? this.brain.pageBlocks(req.data.page) : null;
      if (!req.success || !blocks) return;
      const frame = encodeFrame(
        { kind: "page", ts: at, seq: this.seq, requestId: req.data.id, page: req.data.page, flags: 0 },
        blocks,
      );
      await this.send(DEVICE_LEAVES.page, frame);
    } else if (leaf === "cmd/write" || leaf === "cmd/command") {
      const write = leaf === "cmd/write" ? settingWriteRequest.safeParse(body) : null;
      const command = leaf === "cmd/command" ? commandRequest.safeParse(body) : null;
      const id = write?.data?.id ?? command?.data?.id;
      if (id === undefined) return;
      const outcome = write?.success
        ? this.brain.write(write.data.values, this.upgrading, at)
        : this.brain.command(command?.data?.command ?? -1, this.upgrading, at);
      await this.send(DEVICE_LEAVES.ack, JSON.stringify({ v: 1, id, ...outcome.ack }));
      for (const e of outcome.events) await this.send(DEVICE_LEAVES.alarm, JSON.stringify(e));
      if (outcome.restart) {
        this.seq = 0;
        void this.restart(3000);
      }
    } else if (leaf === "cmd/ota") {
      const req = otaRequest.safeParse(body);
      if (!req.success) return;
      const order = req.data;
      const slot = `${order.firmwareType}:${order.bcuId ?? 0}:${order.bmsId ?? 0}`;
      const report = (p: object) => this.send(DEVICE_LEAVES.ota, JSON.stringify({ v: 1, id: order.id, ...p }));
      if (this.upgrade) {
        // The console sent the running upgrade again (it lost track, e.g. while restarting): carry on under the new id.
        if (this.upgrade.sha256 === order.sha256) this.upgrade.id = order.id;
        else await report({ stage: "failed", percent: 100, resultCode: OTA_RESULT.stateNotAllowed });
        return;
      }
      if (this.installed.get(slot)?.sha256 === order.sha256) {
        await report({ stage: "accepted", percent: 0 });
        await report({ stage: "succeeded", percent: 100, version: order.version });
        return;
      }
      this.upgrading = true;
      this.upgradesRun++;
      const current = { id: order.id, sha256: order.sha256 };
      this.upgrade = current;
      try {
        const ok = await runUpgrade(order, this.brain.condition, {
          fail: this.random() < (this.options.otaFailRate ?? 0),
          random: this.random,
          stepMs: this.options.otaStepMs,
          fetchPackage: this.options.fetchPackage ?? httpPackageFetcher(this.identity.sn, this.identity.secret),
          currentId: () => current.id,
          report: (p) => this.send(DEVICE_LEAVES.ota, JSON.stringify(p)),
        });
        if (ok) this.installed.set(slot, { version: order.version, sha256: order.sha256 });
        // The registers show what now runs, whether or not a report went out since.
        this.brain.tick(this.now());
      } finally {
        this.upgrade = null;
        this.upgrading = false;
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    if (!client) return;
    if (client.connected)
      await client.publishAsync(this.topic(DEVICE_LEAVES.status), "offline", { qos: 1, retain: true }).catch(() => {});
    await client.endAsync();
  }
}

/** A device of a fleet file as a virtual device (its plant follows from its index and the seed). */
export type { FleetDevice };
