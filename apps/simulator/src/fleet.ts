import type { FleetDevice } from "./fleet-spec.ts";
import { plantSpecOf } from "./fleet-spec.ts";
import { type DeviceOptions, VirtualDevice } from "./virtual-device.ts";

export interface FleetOptions extends Omit<DeviceOptions, "brokerUrl"> {
  brokerUrl: string;
  /** Devices with credentials; without `index`, their position in the list. */
  devices: (Omit<FleetDevice, "index"> & { index?: number })[];
  /** Decides every device's plant (site, size, battery) and its weather and habits. */
  seed?: number;
}

/** Starts every device, spread over one interval so they do not all publish at once. */
export async function startFleet(options: FleetOptions) {
  const seed = options.seed ?? 1;
  const devices = options.devices.map(
    (d, i) => new VirtualDevice({ sn: d.sn, secret: d.secret }, plantSpecOf(d.sn, d.index ?? i, seed), options),
  );
  const spread = options.intervalMs / Math.max(1, devices.length);
  await Promise.all(
    devices.map((device, i) => new Promise<void>((resolve) => setTimeout(resolve, i * spread)).then(() => device.start())),
  );
  return {
    devices,
    async stop() {
      await Promise.all(devices.map((d) => d.stop()));
    },
  };
}
