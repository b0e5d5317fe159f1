import type { ServerOptions } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";

/**
 * How long a client may take over each part of an HTTP connection. A slow or silent client is
 * answered 408 (when nothing was answered yet) and closed, so a crowd of them cannot hold sockets,
 * memory and file descriptors for minutes.
 */
export interface ConnectionBounds {
  /** From a request's first byte to the end of its headers (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** From the end of the headers to the end of the body, for every route but uploads. */
  bodyTimeoutMs: number;
  /** The same for the routes in `uploadRoutes` (firmware packages of up to 64 MB). */
  uploadTimeoutMs: number;
  /** An idle keep-alive connection between requests. */
  keepAliveTimeoutMs: number;
  /** Nothing moving either way on a connection (a request being worked on included). */
  idleTimeoutMs: number;
  /** WebSocket liveness: pinged this often, closed when the previous ping went unanswered. */
  wsPingMs: number;
}

export const DEFAULT_CONNECTION_BOUNDS: ConnectionBounds = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  uploadTimeoutMs: 600_000,
  keepAliveTimeoutMs: 72_000,
  idleTimeoutMs: 120_000,
  wsPingMs: 30_000,
};

/** Fastify's server options for these bounds (they have to be given when the server is made). */
export function boundedServerOptions(b: ConnectionBounds): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  const shortest = Math.min(b.headersTimeoutMs, b.bodyTimeoutMs);
  return {
    connectionTimeout: b.idleTimeoutMs,
    keepAliveTimeout: b.keepAliveTimeoutMs,
    // Node bounds a whole request only server-wide: it gets the longest one a route allows, as a
    // backstop; the shorter bound of ordinary bodies is the hook's below.
    requestTimeout: b.headersTimeoutMs + Math.max(b.bodyTimeoutMs, b.uploadTimeoutMs),
    http: {
      headersTimeout: b.headersTimeoutMs,
      // Node looks for expired requests only this often (30 s unless told): a quarter of the
      // shortest bound keeps the overshoot small, one second at most.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))),
    },
  };
}

const TIMED_OUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/** Ends a connection whose body is late the way Node ends one whose headers are: 408, then close. */
function closeLate(request: FastifyRequest, reply: FastifyReply) {
  const socket = request.raw.socket;
  if (!socket || socket.destroyed) return;
  if (reply.raw.headersSent) socket.destroy();
  else socket.end(TIMED_OUT);
  // A client that never closes its side is not waited for.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Bounds the time to receive a body once the headers are in (`uploadRoutes`, by route URL, get
 * the upload bound), and pings WebSockets. Node bounds the headers, keep-alive and idle time
 * itself through `boundedServerOptions`.
 */
export function installConnectionBounds(app: FastifyInstance, b: ConnectionBounds, uploadRoutes: readonly string[]) {
  const uploads = new Set(uploadRoutes);
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  const clear = async (request: FastifyRequest) => {
    clearTimeout(timers.get(request));
    timers.delete(request);
  };
  app.addHook("onRequest", async (request, reply) => {
    const length = request.headers["content-length"];
    const hasBody = (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined;
    if (!hasBody) return;
    const limit = uploads.has(request.routeOptions.url ?? "") ? b.uploadTimeoutMs : b.bodyTimeoutMs;
    timers.set(
      request,
      setTimeout(() => {
        request.log.info({ limitMs: limit }, "request body not received in time; connection closed");
        closeLate(request, reply);
      }, limit),
    );
  });
  // The body is in once validation starts; a request refused before that ends in onResponse.
  app.addHook("preValidation", clear);
  app.addHook("onResponse", clear);
  app.addHook("onRequestAbort", clear);

  const answered = new WeakSet<WebSocket>();
  app.websocketServer.on("connection", (socket: WebSocket) => {
    answered.add(socket);
    socket.on("pong", () => answered.add(socket));
  });
  const pinger = setInterval(() => {
    for (const socket of app.websocketServer.clients) {
      if (!answered.has(socket)) {
        socket.terminate();
        continue;
      }
      answered.delete(socket);
      socket.ping();
    }
  }, b.wsPingMs);
  pinger.unref();
  app.addHook("onClose", async () => clearInterval(pinger));
}
