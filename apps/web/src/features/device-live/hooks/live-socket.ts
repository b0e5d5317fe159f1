import { type DeviceLiveMessage, deviceLiveDestination, type LiveAudience } from "@ess/contracts/device/live-destination.ts";
import { subscribeLive } from "../../../api/realtime.ts";

/** Subscribes to one device's live destination for the caller's audience; returns a stop function. */
export const connectDeviceLive = (deviceId: number, audience: LiveAudience, onMessage: (message: DeviceLiveMessage) => void) =>
  subscribeLive<DeviceLiveMessage>(deviceLiveDestination(deviceId, audience), onMessage);
