import { DEVICE_LIVE_PATTERN, type DeviceLiveMessage, deviceLiveDestination, type LiveAudience } from "@ess/contracts";
import { AUDIENCES, audienceOfUserType, getRegister, KEY_QUANTITIES } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { findDeviceInScope } from "./device-scope.ts";
import type { LiveEvents } from "./live-events.ts";

/** Key quantities an audience may see on each product (every register behind them visible). */
const visibleColumns = Object.fromEntries(
  AUDIENCES.map((audience) => [
    audience,
    Object.fromEntries(
      (["single", "three"] as const).map((product) => [
        product,
        KEY_QUANTITIES.map((k, i) => ({ column: k.column, i, ids: k[product] as readonly string[] }))
          .filter((k) => k.ids.length > 0 && k.ids.every((id) => getRegister(id)?.view[audience]))
          .map(({ column, i }) => ({ column, i })),
      ]),
    ),
  ]),
) as Record<LiveAudience, Record<"single" | "three", { column: string; i: number }[]>>;

/**
 * Live device data for the consoles: the gateway may subscribe a caller to a device in its scope,
 * for its own audience; each committed reading and each change of online status is published to
 * the device's destinations that have subscribers (nothing is built for a device nobody watches).
 */
export function startLivePush(deps: { db: Queryable; hub: RealtimeHub; events: LiveEvents }) {
  deps.hub.authorise(DEVICE_LIVE_PATTERN, async (caller, params) => {
    const deviceId = Number(params.deviceId);
    if (!Number.isInteger(deviceId) || params.audience !== audienceOfUserType(caller.userType)) return false;
    if (!caller.permissions.has("device.telemetry.view")) return false;
    return findDeviceInScope(deps.db, caller, deviceId).then(
      () => true,
      () => false,
    );
  });

  const onFrames = (
    frames: readonly { device: { id: number; phaseType: 1 | 2 | null }; ts: number; receivedAt: number; kq: (number | null)[] }[],
  ) => {
    for (const f of frames) {
      for (const audience of AUDIENCES) {
        const destination = deviceLiveDestination(f.device.id, audience);
        if (deps.hub.subscriberCount(destination) === 0) continue;
        const columns = visibleColumns[audience][f.device.phaseType === 1 ? "single" : "three"];
        const quantities = Object.fromEntries(columns.map(({ column, i }) => [column, f.kq[i] ?? null]));
        const message: DeviceLiveMessage = { deviceId: f.device.id, reading: { ts: f.ts, receivedAt: f.receivedAt, quantities } };
        deps.hub.publish(destination, message);
      }
    }
  };
  const onStatus = (deviceIds: number[], status: number) => {
    for (const deviceId of deviceIds) {
      for (const audience of AUDIENCES) {
        const message: DeviceLiveMessage = { deviceId, onlineStatus: status };
        deps.hub.publish(deviceLiveDestination(deviceId, audience), message);
      }
    }
  };
  deps.events.on("frames", onFrames);
  deps.events.on("status", onStatus);
  return {
    stop() {
      deps.events.off("frames", onFrames as never);
      deps.events.off("status", onStatus as never);
    },
  };
}
