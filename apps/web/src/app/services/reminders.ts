import type { ReminderMessage } from "@ess/contracts";
import { REALTIME_HEARTBEAT_MS, reminderDestination } from "@ess/contracts/realtime/destinations.ts";
import i18next from "i18next";
import { sessionStore } from "../session.ts";

/** Reconnection pause after a lost connection. */
const RECONNECT_DELAY_MS = 5000;

/**
 * Subscribes to the user's reminder topic on the live-push gateway (STOMP over WebSocket at
 * /act/ws, spec §7) and calls `onReminder` for each. Heart-beats every 5 s both ways; a lost
 * connection is retried every 5 s with the then-current access token. Returns a stop function.
 */
export async function connectReminders(onReminder: (reminder: ReminderMessage) => void): Promise<() => void> {
  const { Client } = await import("@stomp/stompjs");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const client = new Client({
    brokerURL: `${scheme}//${location.host}/act/ws`,
    heartbeatIncoming: REALTIME_HEARTBEAT_MS,
    heartbeatOutgoing: REALTIME_HEARTBEAT_MS,
    reconnectDelay: RECONNECT_DELAY_MS,
    // The token may have been refreshed since the last attempt.
    beforeConnect: (c) => {
      const token = sessionStore.get()?.access_token;
      if (!token) {
        void c.deactivate();
        return;
      }
      // The gateway's refusals come back in the console's language.
      c.connectHeaders = { Authorization: `Bearer ${token}`, "accept-language": i18next.language };
    },
    onConnect: () => {
      const user = sessionStore.get()?.userInfo?.user;
      if (!user) return;
      client.subscribe(reminderDestination(user.tenantId, user.id), (message) => {
        try {
          onReminder(JSON.parse(message.body) as ReminderMessage);
        } catch (error) {
          console.warn("unreadable reminder", error);
        }
      });
    },
  });
  client.activate();
  return () => void client.deactivate();
}
