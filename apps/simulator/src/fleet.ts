import { type DeviceIdentity, VirtualDevice } from "./virtual-device.ts";

export interface FleetOptions {
  brokerUrl: string;
  devices: DeviceIdentity[];
  intervalMs: number;
}

/** A smooth day curve: zero at night, peaking at noon local to the process. */
function daylight(at: Date): number {
  const hours = at.getHours() + at.getMinutes() / 60;
  return Math.max(0, Math.sin(((hours - 6) / 12) * Math.PI));
}

export function basicSample(index: number) {
  const ratedW = 5000 + (index % 2) * 1000;
  let soc = 40 + ((index * 7) % 50);
  return (at: Date) => {
    const pvPower = Math.round(ratedW * 0.8 * daylight(at));
    const loadPower = Math.round(400 + 300 * Math.sin((at.getHours() / 24) * 2 * Math.PI) ** 2);
    const surplus = pvPower - loadPower;
    soc = Math.min(100, Math.max(10, soc + surplus / 20_000));
    return { pvPower, loadPower, batterySoc: Math.round(soc * 10) / 10, gridPower: soc >= 100 ? -surplus : 0 };
  };
}

/** Starts every device, spread over one interval so they do not all publish at once. */
export async function startFleet(options: FleetOptions) {
  const devices = options.devices.map(
    (identity, i) =>
      new VirtualDevice(identity, { brokerUrl: options.brokerUrl, intervalMs: options.intervalMs, sample: basicSample(i) }),
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
