import { EventEmitter } from "node:events";
import type { AlarmEvent } from "@ess/contracts";
import type { DeviceRef } from "./device-directory.ts";
import type { OnlineStatus } from "./presence.ts";
import type { StoredFrame } from "./telemetry-writer.ts";

/**
 * What happened to devices, for live views and alarms: frames committed (with the id of the batch's
 * notes), online status changes (with the time written to the on/off-line log) and alarm events
 * once stored (with the time they arrived). In one process; the STOMP gateway (or a cross-process
 * bus) relays them to browsers.
 */
export interface LiveEvents {
  on(event: "frames", listener: (frames: readonly StoredFrame[], committedAt: number, batchId: string) => void): this;
  on(event: "status", listener: (deviceIds: number[], status: OnlineStatus, at: number) => void): this;
  on(event: "alarm", listener: (device: DeviceRef, alarm: AlarmEvent, receivedAt: number) => void): this;
  off(event: "frames" | "status" | "alarm", listener: (...args: never[]) => void): this;
  emit(event: "frames", frames: readonly StoredFrame[], committedAt: number, batchId: string): boolean;
  emit(event: "status", deviceIds: number[], status: OnlineStatus, at: number): boolean;
  emit(event: "alarm", device: DeviceRef, alarm: AlarmEvent, receivedAt: number): boolean;
}

export function createLiveEvents(): LiveEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return emitter as unknown as LiveEvents;
}
