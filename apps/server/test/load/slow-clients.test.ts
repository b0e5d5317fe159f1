import { connect, type Socket } from "node:net";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

// Small bounds, so that the test sees them act; each is a configuration variable.
const HEADERS_MS = 1000;
const BODY_MS = 1000;
const UPLOAD_MS = 3000;
const KEEPALIVE_MS = 1000;
const CONNECT_MS = 1000;
const PING_MS = 700;
// Node looks for late requests every quarter of the shortest bound; the rest is a busy machine's
// slack (the tests run at once, each waiting for its own bound).
const SLACK_MS = 1500;

let server: ServerProcess;
let url: URL;
let brokerPort: number;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh?.drop;
  server = startServerProcess({
    DATA_DIR: tempDataDir(),
    ESS_ADMIN_PASSWORD: "Slow12345",
    ESS_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    ESS_HTTP_BODY_TIMEOUT_MS: String(BODY_MS),
    ESS_HTTP_UPLOAD_TIMEOUT_MS: String(UPLOAD_MS),
    ESS_HTTP_KEEPALIVE_TIMEOUT_MS: String(KEEPALIVE_MS),
    ESS_REALTIME_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
    ESS_BROKER_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
    ESS_WS_PING_MS: String(PING_MS),
    ...(fresh ? { DATABASE_URL: fresh.url } : {}),
  });
  url = new URL(await server.ready());
  brokerPort = Number(/MQTT broker for devices: mqtt:\/\/[^:]+:(\d+)/.exec(server.output())?.[1]);
}, 60_000);
afterAll(async () => {
  await server?.stop("SIGKILL").catch(() => {});
  await drop?.();
});

/** A raw TCP connection that records what it received and when the server closed it. */
function rawConnection(port: number) {
  const opened = performance.now();
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(performance.now() - opened)));
  return { socket, closed, received: () => received, opened };
}

/** Sends `text` a byte at a time every `everyMs`, then nothing; stops when the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number) {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++] as string);
  }, everyMs);
  socket.on("close", () => clearInterval(timer));
}

const healthy = async () => (await fetch(new URL("/healthz", url))).status;

// Every bound is waited for at once: the file takes about as long as its longest bound.
describe.concurrent("slow and silent clients", () => {
  describe("the HTTP listener", () => {
    it("closes 100 clients that send their headers a byte at a time within the headers bound", async () => {
      const clients = Array.from({ length: 100 }, () => rawConnection(Number(url.port)));
      for (const c of clients) trickle(c.socket, "GET /healthz HTTP/1.1\r\nHost: console\r\nX-Slow: yes", 200);
      // Meanwhile the console answers everybody else.
      expect(await healthy()).toBe(200);
      const times = await Promise.all(clients.map((c) => c.closed));
      expect(Math.max(...times)).toBeLessThan(HEADERS_MS + SLACK_MS);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(HEADERS_MS - 50);
      expect(clients.every((c) => c.received().startsWith("HTTP/1.1 408"))).toBe(true);
      expect(await healthy()).toBe(200);
    });

    it("closes a connection that opens and sends nothing", async () => {
      const silent = rawConnection(Number(url.port));
      expect(await silent.closed).toBeLessThan(HEADERS_MS + SLACK_MS);
    });

    it("answers 408 and closes when a body stops arriving", async () => {
      const client = rawConnection(Number(url.port));
      client.socket.write("POST /login?grant_type=admin HTTP/1.1\r\nHost: console\r\nContent-Type: application/json\r\n");
      client.socket.write('Content-Length: 200\r\n\r\n{"username":"adm');
      const time = await client.closed;
      expect(time).toBeGreaterThanOrEqual(BODY_MS - 50);
      expect(time).toBeLessThan(BODY_MS + SLACK_MS);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
    });

    it("gives a firmware upload's body its own, longer bound", async () => {
      const client = rawConnection(Number(url.port));
      client.socket.write(
        "POST /admin/file/info/upload/file?fileName=pack.bin HTTP/1.1\r\nHost: console\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n",
      );
      const sending = setInterval(() => client.socket.destroyed || client.socket.write(Buffer.alloc(1000, 7)), 100);
      const time = await client.closed;
      clearInterval(sending);
      expect(time).toBeGreaterThan(BODY_MS + SLACK_MS);
      expect(time).toBeLessThan(UPLOAD_MS + SLACK_MS);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
    });

    it("closes an idle keep-alive connection after the keep-alive bound", async () => {
      const client = rawConnection(Number(url.port));
      client.socket.write("GET /healthz HTTP/1.1\r\nHost: console\r\nConnection: keep-alive\r\n\r\n");
      await new Promise<void>((resolve) => client.socket.once("data", () => resolve()));
      const answeredAt = performance.now() - client.opened;
      const time = await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
      expect(time - answeredAt).toBeGreaterThanOrEqual(KEEPALIVE_MS - 50);
      expect(time - answeredAt).toBeLessThan(KEEPALIVE_MS + SLACK_MS);
    });
  });

  describe("the embedded MQTT broker", () => {
    it("closes a TCP client that never sends CONNECT, and one that sends half of it", async () => {
      const silent = rawConnection(brokerPort);
      const partial = rawConnection(brokerPort);
      // The first bytes of a CONNECT (MQTT 3.1.1, remaining length 40), then nothing more.
      partial.socket.write(Buffer.from([0x10, 40, 0, 4, 0x4d, 0x51]));
      for (const time of await Promise.all([silent.closed, partial.closed])) {
        expect(time).toBeGreaterThanOrEqual(CONNECT_MS - 50);
        expect(time).toBeLessThan(CONNECT_MS + SLACK_MS);
      }
    });

    it("closes a WebSocket client at /mqtt that never sends CONNECT", async () => {
      const opened = performance.now();
      const socket = new WebSocket(new URL("/mqtt", url).toString().replace(/^http/, "ws"), "mqtt");
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("open", () => resolve()));
      await new Promise<void>((resolve) => socket.once("close", () => resolve()));
      expect(performance.now() - opened).toBeLessThan(CONNECT_MS + SLACK_MS);
    });

    it("refuses a client that asks for no keep-alive at all, which it could never notice gone", async () => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${brokerPort}`, {
        clientId: "no-keepalive",
        username: "no-keepalive",
        password: "whatever",
        keepalive: 0,
        reconnectPeriod: 0,
      });
      const outcome = await new Promise<string>((resolve) => {
        client.once("connect", () => resolve("connected"));
        client.once("error", (error) => resolve(`refused: ${error.message}`));
        client.once("close", () => resolve("closed"));
      });
      client.end(true);
      expect(outcome).not.toBe("connected");
    });
  });

  describe("the live-push gateway", () => {
    it("closes a STOMP client that never sends CONNECT, telling it why", async () => {
      const opened = performance.now();
      const socket = new WebSocket(new URL("/act/ws", url).toString().replace(/^http/, "ws"), "v12.stomp");
      const frames: string[] = [];
      socket.on("message", (data) => frames.push(data.toString()));
      socket.on("error", () => {});
      await new Promise<void>((resolve) => socket.once("close", () => resolve()));
      const time = performance.now() - opened;
      expect(time).toBeGreaterThanOrEqual(CONNECT_MS - 50);
      expect(time).toBeLessThan(CONNECT_MS + SLACK_MS);
      expect(frames.some((f) => f.startsWith("ERROR"))).toBe(true);
    });

    it("closes a signed-in console that declined heart-beats once it stops answering pings, and keeps one that answers", async () => {
      const login = (await (
        await fetch(new URL("/login?grant_type=admin", url), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "admin", password: "Slow12345" }),
        })
      ).json()) as { data: { access_token: string } };
      const open = async (autoPong: boolean) => {
        const socket = new WebSocket(new URL("/act/ws", url).toString().replace(/^http/, "ws"), "v12.stomp", { autoPong });
        socket.on("error", () => {});
        const connected = new Promise<void>((resolve) =>
          socket.on("message", (data) => data.toString().startsWith("CONNECTED") && resolve()),
        );
        await new Promise<void>((resolve) => socket.once("open", () => resolve()));
        socket.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${login.data.access_token}\n\n\0`);
        await connected;
        return { socket, closed: new Promise<number>((resolve) => socket.once("close", () => resolve(performance.now()))) };
      };
      const [deaf, alive] = await Promise.all([open(false), open(true)]);
      const since = performance.now();
      expect((await deaf.closed) - since).toBeLessThan(2 * PING_MS + SLACK_MS);
      await new Promise((r) => setTimeout(r, 2 * PING_MS));
      expect(alive.socket.readyState).toBe(WebSocket.OPEN);
      alive.socket.close();
    });
  });
});
