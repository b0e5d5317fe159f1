import type { ReminderMessage } from "@ess/contracts";
import { Client } from "@stomp/stompjs";
import type { Runtime } from "../../src/runtime.ts";

/** A console's reminder subscription over the STOMP gateway, as the web opens it for a signed-in user. */
export async function subscribeReminders(runtime: Runtime, token: string, tenantId: number, userId: number) {
  const received: ReminderMessage[] = [];
  const client = new Client({
    brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.activate();
  });
  const destination = `/user/${tenantId}/${userId}/reminders`;
  client.subscribe(destination, (m) => received.push(JSON.parse(m.body) as ReminderMessage));
  await waitUntil(() => runtime.realtime.subscriberCount(destination) === 1, 5000);
  return { received, close: () => client.deactivate() };
}

/** The administrator's id (tenant 1). */
export async function adminId(runtime: Runtime): Promise<number> {
  const { rows } = await runtime.db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'admin'");
  return rows[0]?.id as number;
}

/** Waits until `check` holds (usable in hooks, where expect.poll is not); throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what = "condition") {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
