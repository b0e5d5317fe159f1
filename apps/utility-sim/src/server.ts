import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { certificateIdentity } from "@ess/domain/grid/hashed-identity.ts";
import { encodeSep, PagingError, SEP_XML, SepXmlError } from "@ess/sep2";
import { compressedClock, type SimClock } from "./clock.ts";
import { createControl, type UtilityControl } from "./control.ts";
import { RequestLog } from "./request-log.ts";
import { type Caller, HttpError, type Method, matchRoute, type Reply, type Route } from "./router.ts";
import { derRoutes } from "./routes/der.ts";
import { discoveryRoutes } from "./routes/discovery.ts";
import { meteringRoutes } from "./routes/metering.ts";
import { UtilityState } from "./state.ts";
import type { TimeZone } from "./views.ts";

/**
 * The utility test server: IEEE 2030.5 / CSIP-AUS over HTTPS with client certificates, in memory.
 * The TLS layer refuses any client without a certificate of the server's CA; the caller is then
 * known by its certificate's LFDI and sees only its own EndDevices and mirrors.
 */

export interface UtilitySimOptions {
  /** PEM: the CA that signs client certificates (and the server's own), the server's certificate and key. */
  tls: { ca: string; cert: string; key: string };
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default real time. */
  clock?: SimClock;
  /** Default AEST without daylight saving (Brisbane). */
  timeZone?: TimeZone;
}

export interface UtilitySim {
  /** https://host:port */
  url: string;
  /** The DeviceCapability URL a client starts from. */
  dcapUrl: string;
  control: UtilityControl;
  close(): Promise<void>;
}

const ROUTES: readonly Route[] = [...discoveryRoutes, ...derRoutes, ...meteringRoutes];
const MAX_BODY_BYTES = 1 << 20;
const AEST: TimeZone = { tzOffset: 36_000, dstOffset: 0 };

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "Body too large", 2);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function callerOf(request: IncomingMessage, cache: WeakMap<object, Caller>): Caller | undefined {
  const socket = request.socket as TLSSocket;
  const known = cache.get(socket);
  if (known) return known;
  const raw = socket.getPeerCertificate?.()?.raw;
  if (!raw) return undefined;
  const caller = certificateIdentity(raw);
  cache.set(socket, caller);
  return caller;
}

function errorReply(error: unknown): Reply & { reasonCode?: number } {
  if (error instanceof HttpError) return { status: error.status, reasonCode: error.reasonCode };
  if (error instanceof SepXmlError) return { status: 400, reasonCode: 0 };
  if (error instanceof PagingError) return { status: 400, reasonCode: 1 };
  console.error("utility-sim: handler failed", error);
  return { status: 500 };
}

function send(response: ServerResponse, reply: Reply & { reasonCode?: number }): void {
  if (reply.location) response.setHeader("Location", reply.location);
  let body: string | undefined;
  if (reply.document) body = encodeSep(reply.document.name, reply.document.resource as never);
  else if (reply.reasonCode !== undefined) body = encodeSep("Error", { reasonCode: reply.reasonCode });
  if (body === undefined) {
    response.writeHead(reply.status).end();
    return;
  }
  response.writeHead(reply.status, { "Content-Type": SEP_XML, "Content-Length": Buffer.byteLength(body) }).end(body);
}

export async function startUtilitySim(options: UtilitySimOptions): Promise<UtilitySim> {
  const clock = options.clock ?? compressedClock();
  const zone = options.timeZone ?? AEST;
  const state = new UtilityState();
  const log = new RequestLog();
  const control = createControl(state, log, clock);
  const callers = new WeakMap<object, Caller>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const caller = callerOf(request, callers);
    if (!caller) {
      // Cannot happen with rejectUnauthorized, but never serve an anonymous caller.
      response.writeHead(403).end();
      return;
    }
    const url = new URL(request.url ?? "/", "https://utility.invalid");
    const method = request.method === "HEAD" ? "GET" : ((request.method ?? "GET") as Method);
    let body = "";
    let reply: Reply & { reasonCode?: number };
    try {
      body = await readBody(request);
    } catch (error) {
      send(response, errorReply(error));
      return;
    }
    const entry = log.receive({
      at: clock.now(),
      realAt: Date.now(),
      method: request.method ?? "GET",
      path: url.pathname,
      query: url.search.slice(1),
      lfdi: caller.lfdi,
      body,
      contentType: request.headers["content-type"],
    });
    if (state.outage) {
      reply = { status: 500 };
    } else {
      const match = matchRoute(ROUTES, url.pathname);
      const handler = match?.route.methods[method];
      if (!match) reply = { status: 404, reasonCode: 1 };
      else if (!handler) {
        response.setHeader("Allow", Object.keys(match.route.methods).join(", "));
        reply = { status: 405, reasonCode: 1 };
      } else {
        try {
          const nowMs = clock.now();
          reply = handler({
            caller,
            params: match.params,
            query: url.searchParams,
            body,
            state,
            now: Math.floor(nowMs / 1000),
            nowMs,
            zone,
          });
        } catch (error) {
          reply = errorReply(error);
        }
      }
    }
    send(response, reply);
    log.served(entry, reply.status, reply.location);
  }

  const server: Server = createServer(
    {
      ca: options.tls.ca,
      cert: options.tls.cert,
      key: options.tls.key,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: "TLSv1.2",
    },
    (request, response) => {
      handle(request, response).catch((error) => {
        console.error("utility-sim: request failed", error);
        if (!response.headersSent) response.writeHead(500).end();
      });
    },
  );
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `https://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    dcapUrl: `${url}/dcap`,
    control,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
