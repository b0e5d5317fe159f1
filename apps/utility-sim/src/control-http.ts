import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { UtilityControl } from "./control.ts";

/**
 * The control API as JSON over plain HTTP, for driving a standalone server (`npm start`) from a
 * shell or another process. It listens on loopback only: it can register devices and cut
 * communications, so it must not be reachable from the network.
 *
 *   GET  /state                      rates, EndDevices, programs, controls, MirrorUsagePoints
 *   GET  /requests?after=&method=&path=  the request log (path may use * for one segment)
 *   GET  /readings, /responses, /der-writes
 *   POST /rates                      {"derpListPoll": 60, …}
 *   POST /outage                     {"on": true}
 *   POST /registration-links         {"enabled": false}
 *   POST /end-devices                RegisterEndDeviceInput
 *   POST /programs                   ProgramInput
 *   POST /programs/{id}/default-control   DefaultControlSettings
 *   POST /controls                   ControlInput
 *   POST /controls/{id}/cancel, /controls/cancel-active
 *   POST /clock                      {"time": ms since 1970}
 */

type Json = Record<string, unknown>;
type Action = (control: UtilityControl, body: Json, params: string[], query: URLSearchParams) => unknown;

const ACTIONS: [string, RegExp, Action][] = [
  [
    "GET",
    /^\/state$/,
    (c) => ({
      now: c.now(),
      rates: c.rates(),
      endDevices: c.endDevices(),
      programs: c.programs(),
      controls: c.controls(),
      mirrorUsagePoints: c.mirrorUsagePoints(),
    }),
  ],
  [
    "GET",
    /^\/requests$/,
    (c, _b, _p, q) =>
      c.requests({
        after: q.has("after") ? Number(q.get("after")) : undefined,
        method: q.get("method") ?? undefined,
        path: q.get("path") ?? undefined,
      }),
  ],
  ["GET", /^\/readings$/, (c) => c.readings()],
  ["GET", /^\/responses$/, (c) => c.responses()],
  ["GET", /^\/der-writes$/, (c) => c.derWrites()],
  ["POST", /^\/rates$/, (c, b) => c.setRates(b)],
  ["POST", /^\/outage$/, (c, b) => c.setOutage(b.on === true)],
  ["POST", /^\/registration-links$/, (c, b) => c.setRegistrationLinks(b.enabled !== false)],
  ["POST", /^\/end-devices$/, (c, b) => c.registerEndDevice(b as never)],
  ["POST", /^\/programs$/, (c, b) => c.createProgram(b as never)],
  ["POST", /^\/programs\/(\d+)\/default-control$/, (c, b, p) => c.setDefaultControl(Number(p[0]), b as never)],
  ["DELETE", /^\/programs\/(\d+)\/default-control$/, (c, _b, p) => c.removeDefaultControl(Number(p[0]))],
  ["POST", /^\/controls$/, (c, b) => c.createControl(b as never)],
  ["POST", /^\/controls\/cancel-active$/, (c) => ({ cancelled: c.cancelActiveControls() })],
  ["POST", /^\/controls\/(\d+)\/cancel$/, (c, _b, p) => c.cancelControl(Number(p[0]))],
  [
    "POST",
    /^\/clock$/,
    (c, b) => {
      if (typeof b.time !== "number") throw new RangeError("time is ms since 1970");
      c.clock.setTime(b.time);
      return { now: c.now() };
    },
  ],
];

async function readJson(request: IncomingMessage): Promise<Json> {
  let text = "";
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 1 << 20) throw new RangeError("Body too large");
  }
  if (text.trim() === "") return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new RangeError("The body is a JSON object");
  return value as Json;
}

export interface ControlPort {
  url: string;
  close(): Promise<void>;
}

/** Serves the control API on 127.0.0.1 (port 0 = ephemeral). */
export async function startControlPort(control: UtilityControl, port = 0): Promise<ControlPort> {
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://control.invalid");
    const found = ACTIONS.map(([method, pattern, action]) => ({ method, match: pattern.exec(url.pathname), action })).filter(
      (a) => a.match,
    );
    const action = found.find((a) => a.method === request.method);
    const reply = (status: number, value: unknown) => {
      const body = JSON.stringify(value ?? { ok: true });
      response.writeHead(status, { "Content-Type": "application/json" }).end(body);
    };
    if (!action?.match) return reply(found.length > 0 ? 405 : 404, { error: "No such control action" });
    try {
      reply(200, action.action(control, await readJson(request), action.match.slice(1), url.searchParams));
    } catch (error) {
      reply(400, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
