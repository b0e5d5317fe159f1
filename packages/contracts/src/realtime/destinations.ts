/**
 * The live-push gateway: STOMP 1.2 (1.1, 1.0) over WebSocket at `/act/ws` (spec §7). The client
 * sends `Authorization: Bearer <access token>` in its CONNECT frame; every SUBSCRIBE is authorised
 * for the caller by the module that owns the destination. Heart-beats every 5 s both ways.
 * This file holds no schemas so the browser can import it without zod.
 */
export const REALTIME_PATH = "/act/ws";
export const REALTIME_HEARTBEAT_MS = 5000;

/** The per-user-and-tenant reminder topic. */
export const reminderDestination = (tenantId: number, userId: number) => `/user/${tenantId}/${userId}/reminders`;
/** Pattern form of the same, as registered with the gateway's authorisers. */
export const REMINDER_PATTERN = "/user/:tenantId/:userId/reminders";
