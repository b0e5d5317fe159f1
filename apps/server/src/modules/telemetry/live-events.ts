import { EventEmitter } from "node:events";
import type { AlarmEvent } from "@ess/contracts";
import type { DeviceRef } from "./device-directory.ts";
import type { OnlineStatus } from "./presence.ts";
import type { StoredFrame } from "./telemetry-writer.ts";

/**
 * What happened to devices, for live views and alarms: frames committed, online status changes and
 * alarm events once stored. In one
 * process; the STOMP gateway (or a cross-process bus) relays them to browsers.
 */
export interface LiveEvents {
  on(event: "frames", listener: (frames: readonly StoredFrame[], committedAt: number) => void): this;
  on(event: "status", listener: (deviceIds: number[], status: OnlineStatus) => void): this;
  on(event: "alarm", listener: (device: DeviceRef, alarm: AlarmEvent) => void): this;
  off(event: "frames" | "status" | "alarm", listener: (...args: never[]) => void): this;
  emit(event: "frames", frames: readonly StoredFrame[], committedAt: number): boolean;
  emit(event: "status", deviceIds: number[], status: OnlineStatus): boolean;
  emit(event: "alarm", device: DeviceRef, alarm: AlarmEvent): boolean;
}

export function createLiveEvents(): LiveEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return emitter as unknown as LiveEvents;
}
