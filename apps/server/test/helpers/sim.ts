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
