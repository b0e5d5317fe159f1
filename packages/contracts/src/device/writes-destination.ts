/**
 * Change records of one device on the STOMP gateway: each time a record's state moves (queued →
 * sent → acknowledged / refused / timed out) it is pushed here. Callers who may read the device's
 * parameters may subscribe. No schemas here, so the browser imports it without zod.
 */
export const deviceWritesDestination = (deviceId: number) => `/device/${deviceId}/writes`;
export const DEVICE_WRITES_PATTERN = "/device/:deviceId/writes";

export interface DeviceWriteMessage {
  id: number;
  deviceId: number;
  state: "queued" | "sent" | "acknowledged" | "refused" | "timed_out";
  refusal: string | null;
  sentAt: number | null;
  finishedAt: number | null;
  attempts: number;
}
