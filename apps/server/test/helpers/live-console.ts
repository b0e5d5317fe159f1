import { Client } from "@stomp/stompjs";

/**
 * A console's live-push connection (STOMP over WebSocket at /act/ws) to one process at `url`,
 * subscribed to some destinations; `messages` holds what each received, parsed.
 */
export async function consoleOn(url: string, token: string, destinations: string[]) {
  const messages = new Map<string, unknown[]>(destinations.map((d) => [d, []]));
  const client = new Client({
    brokerURL: `${url.replace(/^http/, "ws")}act/ws`,
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.activate();
  });
  for (const d of destinations) client.subscribe(d, (m) => messages.get(d)?.push(JSON.parse(m.body)));
  return { messages, close: () => client.deactivate() };
}
