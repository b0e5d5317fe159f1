import type { DeviceWriteMessage } from "@ess/contracts/device/writes-destination.ts";
import { deviceWritesDestination } from "@ess/contracts/device/writes-destination.ts";
import { subscribeLive } from "../../../api/realtime.ts";

/** Subscribes to a device's change records: every state change of a record as it happens. */
export const connectDeviceWrites = (deviceId: number, onMessage: (message: DeviceWriteMessage) => void) =>
  subscribeLive<DeviceWriteMessage>(deviceWritesDestination(deviceId), onMessage);
