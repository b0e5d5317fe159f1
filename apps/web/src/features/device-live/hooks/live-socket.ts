import { type DeviceLiveMessage, deviceLiveDestination, type LiveAudience } from "@ess/contracts/device/live-destination.ts";
import { REALTIME_HEARTBEAT_MS, REALTIME_PATH } from "@ess/contracts/realtime/destinations.ts";
import i18next from "i18next";
import { sessionStore } from "../../../app/session.ts";

/**
 * Subscribes to one device's live destination on the gateway (STOMP over WebSocket at /act/ws),
 * for the caller's audience; reconnects every 5 s with the then-current token. Returns a stop
 * function.
 */
export async function connectDeviceLive(
  deviceId: number,
  audience: LiveAudience,
  onMessage: (message: DeviceLiveMessage) => void,
): Promise<() => void> {
  const { Client } = await import("@stomp/stompjs");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const client = new Client({
    brokerURL: `${scheme}//${location.host}${REALTIME_PATH}`,
    heartbeatIncoming: REALTIME_HEARTBEAT_MS,
    heartbeatOutgoing: REALTIME_HEARTBEAT_MS,
    reconnectDelay: 5000,
    beforeConnect: (c) => {
      const token = sessionStore.get()?.access_token;
      if (!token) return void c.deactivate();
      c.connectHeaders = { Authorization: `Bearer ${token}`, "accept-language": i18next.language };
    },
    onConnect: () => {
      client.subscribe(deviceLiveDestination(deviceId, audience), (message) => {
        try {
          onMessage(JSON.parse(message.body) as DeviceLiveMessage);
        } catch (error) {
          console.warn("unreadable live device message", error);
        }
      });
    },
  });
  client.activate();
  return () => void client.deactivate();
}
