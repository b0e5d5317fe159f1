import { randomUUID } from "node:crypto";
import type { Locale } from "@ess/domain";
import type { FastifyRequest } from "fastify";
import type { WebSocket } from "ws";
import { AppError } from "../../http/errors.ts";
import { localeOf, type Translate } from "../../i18n/translator.ts";
import type { AuthContext, Authenticator } from "../auth/auth.context.ts";
import type { RealtimeHub } from "./realtime-hub.ts";
import { createFrameReader, negotiateHeartbeat, type StompFrame, serializeFrame } from "./stomp-frame.ts";

export interface GatewayOptions {
  hub: RealtimeHub;
  auth: Authenticator;
  translator: (locale: Locale) => Translate;
  heartbeatMs: number;
  /** A connection that sends no CONNECT frame within this time is closed. */
  connectTimeoutMs?: number;
  /** How often an open connection's token is checked again (sign-out, expiry, locked account). */
  revalidateMs?: number;
  maxSubscriptions?: number;
  maxFrameBytes?: number;
}

const SUPPORTED_VERSIONS = ["1.2", "1.1", "1.0"];

/** The authenticator resolves callers from request headers; a STOMP CONNECT carries its own. */
const asRequest = (authorization: string | undefined) => ({ headers: { authorization } }) as unknown as FastifyRequest;

/**
 * One STOMP-over-WebSocket connection: authenticates the CONNECT frame's bearer token, answers
 * heart-beats, authorises every SUBSCRIBE through the hub, delivers MESSAGE frames, and closes
 * on a protocol error, a refused subscription, silence, or a session that is no longer valid.
 */
export function handleStompConnection(socket: WebSocket, request: FastifyRequest, options: GatewayOptions) {
  const maxSubscriptions = options.maxSubscriptions ?? 100;
  const reader = createFrameReader(options.maxFrameBytes ?? 64 * 1024);
  const subscriptions = new Map<string, () => void>();
  const timers: ReturnType<typeof setInterval>[] = [];
  let caller: AuthContext | null = null;
  let authorization: string | undefined;
  let locale = localeOf(request.headers["accept-language"]);
  let lastReceived = Date.now();
  let closed = false;

  const send = (frame: StompFrame) => {
    if (!closed && socket.readyState === socket.OPEN) socket.send(serializeFrame(frame));
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearInterval(timer);
    for (const unsubscribe of subscriptions.values()) unsubscribe();
    subscriptions.clear();
    socket.close();
  };
  const fail = (messageKey: string, receipt?: string) => {
    const text = options.translator(locale)(messageKey);
    send({
      command: "ERROR",
      headers: { message: text, "content-type": "text/plain", ...(receipt ? { "receipt-id": receipt } : {}) },
      body: text,
    });
    close();
  };
  const errorKey = (error: unknown) =>
    error instanceof AppError ? (error.messageKey ?? `errors:${error.kind}`) : "errors:internal";

  const connectTimer = setTimeout(() => {
    if (!caller) fail("errors:unauthorized");
  }, options.connectTimeoutMs ?? 10_000);
  timers.push(connectTimer as unknown as ReturnType<typeof setInterval>);

  async function onConnect(frame: StompFrame) {
    if (caller) return fail("errors:validation");
    if (frame.headers["accept-language"]) locale = localeOf(frame.headers["accept-language"]);
    const offered = (frame.headers["accept-version"] ?? "1.0").split(",");
    const version = SUPPORTED_VERSIONS.find((v) => offered.includes(v));
    if (!version) return fail("errors:validation");
    authorization = frame.headers.Authorization ?? frame.headers.authorization;
    try {
      caller = await options.auth.require(asRequest(authorization));
    } catch (error) {
      return fail(errorKey(error));
    }
    clearTimeout(connectTimer);
    const beat = negotiateHeartbeat(frame.headers["heart-beat"], [options.heartbeatMs, options.heartbeatMs]);
    send({
      command: "CONNECTED",
      headers: {
        version,
        "heart-beat": `${options.heartbeatMs},${options.heartbeatMs}`,
        server: "ess-console",
        session: randomUUID(),
      },
      body: "",
    });
    if (beat.sendEveryMs > 0) timers.push(setInterval(() => !closed && socket.send("\n"), beat.sendEveryMs));
    if (beat.expectEveryMs > 0) {
      // Allow twice the agreed period before treating the client as gone.
      timers.push(setInterval(() => Date.now() - lastReceived > beat.expectEveryMs * 2 && close(), beat.expectEveryMs));
    }
    timers.push(
      setInterval(() => {
        options.auth.require(asRequest(authorization)).catch((error: unknown) => fail(errorKey(error)));
      }, options.revalidateMs ?? 60_000),
    );
  }

  async function onSubscribe(frame: StompFrame) {
    const { id, destination, receipt } = frame.headers;
    if (!id || !destination || subscriptions.has(id)) return fail("errors:validation", receipt);
    if (subscriptions.size >= maxSubscriptions) return fail("errors:tooFrequent", receipt);
    try {
      // The session may have ended since CONNECT; authorise with the caller as they are now.
      caller = await options.auth.require(asRequest(authorization));
    } catch (error) {
      return fail(errorKey(error), receipt);
    }
    if (!(await options.hub.maySubscribe(caller, destination))) return fail("errors:forbidden", receipt);
    if (closed) return;
    subscriptions.set(
      id,
      options.hub.subscribe(
        destination,
        (dest, body) =>
          send({
            command: "MESSAGE",
            headers: { destination: dest, subscription: id, "message-id": randomUUID(), "content-type": "application/json" },
            body,
          }),
        caller,
      ),
    );
    if (receipt) send({ command: "RECEIPT", headers: { "receipt-id": receipt }, body: "" });
  }

  // Frames are handled one after another, so a SUBSCRIBE never overtakes its CONNECT.
  let queue = Promise.resolve();
  const handle = async (frame: StompFrame) => {
    if (closed) return;
    if (!caller && frame.command !== "CONNECT" && frame.command !== "STOMP") return fail("errors:unauthorized");
    switch (frame.command) {
      case "CONNECT":
      case "STOMP":
        return onConnect(frame);
      case "SUBSCRIBE":
        return onSubscribe(frame);
      case "UNSUBSCRIBE": {
        const unsubscribe = subscriptions.get(frame.headers.id ?? "");
        unsubscribe?.();
        subscriptions.delete(frame.headers.id ?? "");
        if (frame.headers.receipt) send({ command: "RECEIPT", headers: { "receipt-id": frame.headers.receipt }, body: "" });
        return;
      }
      case "DISCONNECT":
        if (frame.headers.receipt) send({ command: "RECEIPT", headers: { "receipt-id": frame.headers.receipt }, body: "" });
        return close();
      case "ACK":
      case "NACK":
        return;
      default:
        // Clients listen only: SEND and transactions are not part of this gateway.
        return fail("errors:forbidden", frame.headers.receipt);
    }
  };

  socket.on("message", (data: Buffer | string) => {
    lastReceived = Date.now();
    let frames: StompFrame[];
    try {
      frames = reader.push(data.toString()).frames;
    } catch {
      return fail("errors:validation");
    }
    for (const frame of frames) queue = queue.then(() => handle(frame)).catch(() => fail("errors:internal"));
  });
  socket.on("close", close);
  socket.on("error", close);
}
