/**
 * Live device data on the console's STOMP gateway (`/act/ws`): one destination per device and
 * audience, because each audience sees its own share of the values (catalogue defaults). The
 * gateway lets a caller subscribe only to a device in its scope and to its own audience.
 * No schemas here, so the browser imports it without zod.
 */
export type LiveAudience = "backOffice" | "installer" | "consumer";

export const deviceLiveDestination = (deviceId: number, audience: LiveAudience) => `/device/${deviceId}/live/${audience}`;

/** Pattern form, as registered with the gateway's authorisers. */
export const DEVICE_LIVE_PATTERN = "/device/:deviceId/live/:audience";

/** A push: a new reading (its key quantities), or a change of online status (0, 1, 2). */
export interface DeviceLiveMessage {
  deviceId: number;
  onlineStatus?: number;
  reading?: { ts: number; receivedAt: number; quantities: Record<string, number | null> };
}
