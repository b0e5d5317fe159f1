import { baselineValues, blocksFromValues, encodeFrame, pageLayout, TELEMETRY_REGISTERS, telemetryLayout } from "@ess/contracts";
import { registersOfPage } from "@ess/domain";
import { type PlantSpec, type Product, siteById, VirtualDevice } from "@ess/simulator";
import mqtt from "mqtt";
import type { Runtime } from "../../src/runtime.ts";

/** A plant for tests: the given product at the given site, otherwise typical. */
export function plantFor(sn: string, product: Product, siteId: string, seed = 7): PlantSpec {
  const three = product === "three";
  return {
    sn,
    product,
    site: siteById(siteId),
    ratedW: three ? 12_000 : 6000,
    pvKwp: three ? 14 : 7,
    batteryModules: three ? 8 : 3,
    cellAh: 50,
    generatorW: null,
    household: { size: three ? 2 : 1, baseW: 300 },
    seed,
  };
}

/** A simulated device that publishes only when told (publishFrame(at)), connected to the runtime's broker. */
export async function manualDevice(
  runtime: Runtime,
  device: { sn: string; secret: string },
  product: Product,
  siteId: string,
): Promise<VirtualDevice> {
  const d = new VirtualDevice(device, plantFor(device.sn, product, siteId), {
    brokerUrl: runtime.brokerUrl,
    intervalMs: 600_000,
    manual: true,
  });
  await d.start();
  return d;
}

/** Connects as device `sn` (its own credentials) without the simulator, to send hand-made payloads. */
export async function rawDevice(runtime: Runtime, device: { sn: string; secret: string }) {
  return mqtt.connectAsync(runtime.brokerUrl, {
    clientId: device.sn,
    username: device.sn,
    password: device.secret,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
}

/** Removes the retained status messages test devices left on a shared broker. */
export async function clearRetained(runtime: Runtime, serials: string[]) {
  if (!process.env.TEST_MQTT_URL || !runtime.brokerUrl.startsWith(process.env.TEST_MQTT_URL)) return;
  const client = await mqtt.connectAsync(runtime.brokerUrl, { reconnectPeriod: 0 });
  for (const sn of serials) await client.publishAsync(`ess/v1/${sn}/status`, "", { qos: 1, retain: true });
  await client.endAsync();
}

/** A metric's value from /metrics (labels as written there, e.g. `{outcome="stored"}`). */
export async function metric(runtime: Runtime, name: string, labels = ""): Promise<number> {
  const text = (await runtime.app.inject({ method: "GET", url: "/metrics" })).body;
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return Number(line?.split(" ")[1] ?? 0);
}

/** An order a scripted device received: its leaf (`cmd/write`, `cmd/command`, `cmd/ota`, `cmd/read`) and body. */
export interface ReceivedOrder {
  leaf: string;
  body: { id: number } & Record<string, unknown>;
}

/**
 * A three-phase device whose answers the test decides, on the broker at `brokerUrl` with its own
 * credentials (reconnecting within 300 ms, e.g. to a restarted console's broker). It reports a
 * resting reading every `reportEveryMs` while `reporting`, answers page reads, acknowledges writes
 * and commands only if `answers` (else it takes them and says nothing; `ack` answers one later),
 * and accepts its first upgrade order if `acceptsUpgrade`, then says nothing more about it.
 * `goQuiet` ends its connection cleanly (no last will): it is simply never heard from again.
 */
export async function scriptedDevice(
  brokerUrl: string,
  device: { sn: string; secret: string },
  options: { answers?: boolean; acceptsUpgrade?: boolean; reportEveryMs?: number } = {},
) {
  const { sn } = device;
  const orders: ReceivedOrder[] = [];
  let seq = 0;
  let accepted = false;
  const client = mqtt.connect(brokerUrl, {
    clientId: sn,
    username: sn,
    password: device.secret,
    clean: true,
    resubscribe: false,
    reconnectPeriod: 300,
    connectTimeout: 5000,
    will: { topic: `ess/v1/${sn}/status`, payload: Buffer.from("offline"), qos: 1, retain: true },
  });
  client.on("error", () => {});
  const send = (leaf: string, payload: string | Buffer) =>
    client.publishAsync(`ess/v1/${sn}/${leaf}`, payload, { qos: 1 }).then(
      () => undefined,
      () => undefined,
    );
  const report = () =>
    send(
      "telemetry",
      encodeFrame(
        { kind: "telemetry", ts: Date.now(), seq: seq++, requestId: 0, page: 0, flags: 0 },
        blocksFromValues(telemetryLayout("three"), baselineValues(TELEMETRY_REGISTERS.three)),
      ),
    );
  const ack = (id: number, ok = true) => send("ack", JSON.stringify({ v: 1, id, ok }));
  client.on("connect", () => {
    // As a real device: subscribed to its orders before it says it is there.
    void client
      .subscribeAsync(`ess/v1/${sn}/cmd/#`, { qos: 1 })
      .then(() => report())
      .catch(() => {});
  });
  client.on("message", (topic, payload) => {
    const leaf = topic.slice(`ess/v1/${sn}/`.length);
    let body: ReceivedOrder["body"];
    try {
      body = JSON.parse(payload.toString("utf8"));
    } catch {
      return;
    }
    orders.push({ leaf, body });
    if (leaf === "cmd/read") {
      const page = Number(body.page);
      const frame = encodeFrame(
        { kind: "page", ts: Date.now(), seq, requestId: body.id, page, flags: 0 },
        blocksFromValues(pageLayout(page), baselineValues(registersOfPage(page))),
      );
      void send("page", frame);
    } else if ((leaf === "cmd/write" || leaf === "cmd/command") && options.answers) {
      void ack(body.id);
    } else if (leaf === "cmd/ota" && options.acceptsUpgrade && !accepted) {
      accepted = true;
      void send("ota", JSON.stringify({ v: 1, id: body.id, stage: "accepted", percent: 0 }));
    }
  });
  const timer = setInterval(() => {
    if (state.reporting && client.connected) void report();
  }, options.reportEveryMs ?? 1000);
  const state = {
    sn,
    orders,
    /** Whether it sends its readings. */
    reporting: true,
    ack,
    /** The orders of one kind it received, oldest first. */
    received: (leaf: string) => orders.filter((o) => o.leaf === leaf).map((o) => o.body),
    async goQuiet() {
      clearInterval(timer);
      await client.endAsync();
    },
    async stop() {
      clearInterval(timer);
      await client.endAsync(true);
    },
  };
  await new Promise<void>((resolve, reject) => {
    client.once("connect", () => resolve());
    setTimeout(() => reject(new Error(`${sn} did not connect`)), 10_000).unref();
  });
  return state;
}

export type ScriptedDevice = Awaited<ReturnType<typeof scriptedDevice>>;
