import { reminderDestination } from "@ess/contracts";
import { Client, type IFrame, type IMessage } from "@stomp/stompjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WsSocket } from "ws";
import { hashPassword } from "../../src/modules/auth/password.ts";
import { ADMIN_PASSWORD, createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let wsUrl: string;
let adminToken: string;
let operatorToken: string;
let adminId: number;
let operatorId: number;

beforeAll(async () => {
  t = await createTestApp({ sessionCacheS: 0 });
  const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
  wsUrl = `${address.replace("http", "ws")}/act/ws`;
  const hash = await hashPassword("Operator123");
  const { rows } = await t.db.query<{ id: number }>(
    "INSERT INTO sys_user (tenant_id, username, password_hash, name) VALUES (1, 'operator', $1, 'Olga Operator') RETURNING id",
    [hash],
  );
  operatorId = rows[0]?.id as number;
  adminToken = await signIn(t.app, "admin", ADMIN_PASSWORD);
  operatorToken = await signIn(t.app, "operator", "Operator123");
  const admin = await t.db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'admin'");
  adminId = admin.rows[0]?.id as number;
});
afterAll(() => t.close());

/** A real STOMP client (the one the console uses) connected with a token; resolves once connected or refused. */
function connect(token: string | null, extra: Record<string, string> = {}) {
  const errors: IFrame[] = [];
  let closed = false;
  const client = new Client({
    brokerURL: wsUrl,
    connectHeaders: token ? { Authorization: `Bearer ${token}`, ...extra } : extra,
    heartbeatIncoming: 5000,
    heartbeatOutgoing: 5000,
    reconnectDelay: 0,
    onStompError: (frame) => errors.push(frame),
    onWebSocketClose: () => {
      closed = true;
    },
  });
  const ready = new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.onWebSocketClose = () => {
      closed = true;
      resolve();
    };
  });
  client.activate();
  return { client, errors, ready, isClosed: () => closed };
}

async function sendReminder(token: string, body: unknown, locale = "en-US") {
  return t.app.inject({
    method: "POST",
    url: "/act/reminders",
    headers: { authorization: `Bearer ${token}`, "accept-language": locale },
    payload: body as object,
  });
}

describe("the live-push gateway at /act/ws", () => {
  it("delivers a reminder sent to a user to that user's subscription, and to no one else", async () => {
    const admin = connect(adminToken);
    const operator = connect(operatorToken);
    await Promise.all([admin.ready, operator.ready]);
    const adminGot: IMessage[] = [];
    const operatorGot: IMessage[] = [];
    admin.client.subscribe(reminderDestination(1, adminId), (m) => adminGot.push(m), { receipt: "s1" });
    operator.client.subscribe(reminderDestination(1, operatorId), (m) => operatorGot.push(m));
    await expect.poll(() => t.app.realtime.subscriberCount()).toBe(2);
    const metrics = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(metrics).toMatch(/^ess_realtime_connections 2$/m);
    expect(metrics).toMatch(/^ess_realtime_subscriptions 2$/m);

    const response = await sendReminder(adminToken, {
      userId: operatorId,
      title: "Inspection due",
      content: "Site 12 battery check",
    });
    expect(response.json()).toMatchObject({ code: 0, data: { delivered: 1 } });
    await expect.poll(() => operatorGot.length).toBe(1);
    const reminder = JSON.parse(operatorGot[0]?.body ?? "{}");
    expect(reminder).toMatchObject({ title: "Inspection due", content: "Site 12 battery check", from: "Administrator" });
    expect(operatorGot[0]?.headers.destination).toBe(reminderDestination(1, operatorId));
    expect(adminGot).toHaveLength(0);

    await Promise.all([admin.client.deactivate(), operator.client.deactivate()]);
    await expect.poll(() => t.app.realtime.subscriberCount()).toBe(0);
  });

  it("refuses a subscription to another user's reminders with a translated error and closes", async () => {
    const operator = connect(operatorToken, { "accept-language": "it" });
    await operator.ready;
    operator.client.subscribe(reminderDestination(1, adminId), () => {});
    await expect.poll(() => operator.errors.length).toBe(1);
    expect(operator.errors[0]?.headers.message).toBe("Non hai l'autorizzazione per questa operazione");
    await expect.poll(operator.isClosed).toBe(true);
    expect(t.app.realtime.subscriberCount()).toBe(0);
    await operator.client.deactivate();
  });

  it("refuses destinations no module authorises, and another tenant's topic", async () => {
    for (const destination of ["/topic/everything", reminderDestination(2, adminId)]) {
      const admin = connect(adminToken);
      await admin.ready;
      admin.client.subscribe(destination, () => {});
      await expect.poll(() => admin.errors.length, { timeout: 3000 }).toBe(1);
      await admin.client.deactivate();
    }
    expect(t.app.realtime.subscriberCount()).toBe(0);
  });

  it("refuses a connection without a valid token", async () => {
    const anonymous = connect(null);
    await anonymous.ready;
    expect(anonymous.errors[0]?.headers.message).toMatch(/sign in|登录/i);
    const forged = connect("x".repeat(43));
    await forged.ready;
    expect(forged.errors).toHaveLength(1);
    await Promise.all([anonymous.client.deactivate(), forged.client.deactivate()]);
  });

  it("beats every 5 s and closes a connection whose session was signed out", async () => {
    const token = await signIn(t.app, "operator", "Operator123");
    const socket = new WsSocket(wsUrl, ["v12.stomp"]);
    const received: string[] = [];
    socket.on("message", (data) => received.push(data.toString()));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(`CONNECT\naccept-version:1.2\nheart-beat:5000,5000\nAuthorization:Bearer ${token}\n\n\0`);
    await expect.poll(() => received.join("")).toMatch(/^CONNECTED\n/);
    expect(received[0]).toContain("heart-beat:5000,5000");
    await expect.poll(() => received.includes("\n"), { timeout: 7000, interval: 200 }).toBe(true);

    // After sign-out the next subscription is refused as the session is gone.
    await t.app.inject({ method: "POST", url: "/sys/logout", headers: { authorization: `Bearer ${token}` } });
    socket.send(`SUBSCRIBE\nid:1\ndestination:${reminderDestination(1, operatorId)}\n\n\0`);
    await expect.poll(() => received.some((f) => f.startsWith("ERROR"))).toBe(true);
    await expect.poll(() => socket.readyState).toBe(WsSocket.CLOSED);
  });
});

describe("POST /act/reminders", () => {
  it("needs the permission to send reminders", async () => {
    const response = await sendReminder(operatorToken, { userId: adminId, title: "Hi", content: "Hello" });
    expect(response.statusCode).toBe(403);
  });

  it("names the refused fields and refuses unknown users", async () => {
    const bad = await sendReminder(adminToken, { userId: 0, title: " ", content: "x".repeat(1001) });
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json() as { data: { fields: { field: string }[] } }).data.fields.map((f) => f.field).sort();
    expect(fields).toEqual(["content", "title", "userId"]);
    const unknown = await sendReminder(adminToken, { userId: 999_999, title: "Hi", content: "Hello" });
    expect(unknown.statusCode).toBe(404);
  });
});
