/**
 * Live-push fan-out: N consoles hold a STOMP connection to /act/ws and subscribe to the same
 * user's reminder topic; reminders are sent through the HTTP route at a fixed rate and the time
 * from the send to each console's MESSAGE is measured. Server in its own process, loopback only.
 * Prints figures; it never passes or fails on time.
 *
 *   npm run realtime -w @ess/bench -- [consoles=200] [reminders=50] [per-second=10]
 */
import { cpus } from "node:os";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import { measureTimerDelay } from "./load.ts";

const consoles = Number(process.argv[2] ?? 200);
const reminders = Number(process.argv[3] ?? 50);
const perSecond = Number(process.argv[4] ?? 10);
const password = "Bench12345";

const server = startServerProcess({ DATA_DIR: tempDataDir("ess-bench-"), ESS_ADMIN_PASSWORD: password, ESS_CAPTCHA: "off" });
const url = await server.ready();
const login = (await (
  await fetch(`${url}login?grant_type=admin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  })
).json()) as { data: { access_token: string; user_id: number; tenant_id: number } };
const { access_token: token, user_id: userId, tenant_id: tenantId } = login.data;
const destination = `/user/${tenantId}/${userId}/reminders`;

const latencies: number[] = [];
const sentAt = new Map<string, number>();
const sockets: WebSocket[] = [];
const connectStart = performance.now();
await Promise.all(
  Array.from(
    { length: consoles },
    (_, i) =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`${url.replace("http", "ws")}act/ws`, ["v12.stomp"]);
        sockets.push(socket);
        socket.onopen = () => socket.send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
        socket.onerror = () => reject(new Error(`console ${i} could not connect`));
        socket.onmessage = (event) => {
          const frame = String(event.data);
          if (frame.startsWith("CONNECTED")) socket.send(`SUBSCRIBE\nid:0\ndestination:${destination}\nreceipt:r\n\n\0`);
          else if (frame.startsWith("RECEIPT")) resolve();
          else if (frame.startsWith("MESSAGE")) {
            const title = /"title":"([^"]+)"/.exec(frame)?.[1] ?? "";
            const at = sentAt.get(title);
            if (at !== undefined) latencies.push(performance.now() - at);
          } else if (frame.startsWith("ERROR")) reject(new Error(frame));
        };
      }),
  ),
);
const connectMs = performance.now() - connectStart;

process.stdout.write(`${cpus().length} cores (${cpus()[0]?.model ?? "unknown"})\n`);
const floor = await measureTimerDelay();
process.stdout.write(
  `machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, max ${floor.max.toFixed(1)} ms\n`,
);
process.stdout.write(`${consoles} consoles connected and subscribed in ${connectMs.toFixed(0)} ms\n`);

for (let i = 0; i < reminders; i++) {
  const title = `bench-${i}`;
  sentAt.set(title, performance.now());
  void fetch(`${url}act/reminders`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ userId, title, content: `reminder ${i}` }),
  });
  await new Promise((r) => setTimeout(r, 1000 / perSecond));
}
const deadline = Date.now() + 10_000;
while (latencies.length < consoles * reminders && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
process.stdout.write(
  `${reminders} reminders at ${perSecond}/s to ${consoles} consoles: ${latencies.length}/${consoles * reminders} delivered; ` +
    `send → MESSAGE p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms\n`,
);
for (const socket of sockets) socket.close();
await server.stop();
