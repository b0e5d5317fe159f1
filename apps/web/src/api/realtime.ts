import { REALTIME_HEARTBEAT_MS, REALTIME_PATH } from "@ess/contracts/realtime/destinations.ts";
import i18next from "i18next";
import { sessionStore } from "../app/session.ts";

/**
 * Subscribes to one destination of the live-push gateway (STOMP over WebSocket at /act/ws) and
 * hands each message's JSON body to `onMessage`. Reconnects every 5 s with the then-current token
 * (so a refreshed token is used); the STOMP client loads only when a page first subscribes.
 * Returns a stop function.
 */
export async function subscribeLive<T>(destination: string, onMessage: (message: T) => void): Promise<() => void> {
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
      client.subscribe(destination, (message) => {
        try {
          onMessage(JSON.parse(message.body) as T);
        } catch (error) {
          console.warn(`unreadable message on ${destination}`, error);
        }
      });
    },
  });
  client.activate();
  return () => void client.deactivate();
}
