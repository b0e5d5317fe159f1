import { EventEmitter } from "node:events";
import type { OnlineStatus } from "./presence.ts";
import type { StoredFrame } from "./telemetry-writer.ts";

/**
 * What happened to devices, for live views: frames committed and online status changes. In one
 * process; the STOMP gateway (or a cross-process bus) relays them to browsers.
 */
export interface LiveEvents {
  on(event: "frames", listener: (frames: readonly StoredFrame[], committedAt: number) => void): this;
  on(event: "status", listener: (deviceIds: number[], status: OnlineStatus) => void): this;
  off(event: "frames" | "status", listener: (...args: never[]) => void): this;
  emit(event: "frames", frames: readonly StoredFrame[], committedAt: number): boolean;
  emit(event: "status", deviceIds: number[], status: OnlineStatus): boolean;
}

export function createLiveEvents(): LiveEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return emitter as unknown as LiveEvents;
}
