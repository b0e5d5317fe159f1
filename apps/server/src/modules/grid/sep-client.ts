import { Agent, request } from "node:https";
import { GRID_DIRECTIONS, type GridDirection } from "@ess/domain";
import { createDecodeCache, encodeSep, SEP_XML, type SepResourceName, type SepResources, SepXmlError } from "@ess/sep2";

/**
 * HTTPS to the utility's IEEE 2030.5 server with the aggregator's client certificate: one
 * keep-alive agent for every site (the aggregator is one client), bounded waits and bodies, XML in
 * and out through @ess/sep2. Each exchange is handed to `onExchange` (stored as grid_exchange).
 */

export interface SepExchange {
  direction: GridDirection;
  method: string;
  path: string;
  status: number | null;
  resource: string | null;
  body: string;
  siteId?: number;
}

export interface SepClientOptions {
  /** The DeviceCapability URL; every href the server hands out is resolved against it. */
  dcapUrl: string;
  cert: string;
  key: string;
  ca: string;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  maxBodyBytes?: number;
  /** How many resource paths keep their last decoded document (default 10,000). */
  decodedPaths?: number;
  onExchange?: (exchange: SepExchange) => void;
  onRequest?: (method: string, status: number) => void;
}

/** The server answered outside 2xx, or not at all (status 0). */
export class GridHttpError extends Error {
  override name = "GridHttpError";
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export interface SentReply {
  status: number;
  /** The Location header resolved to a path, when the server gave one. */
  location?: string;
}

export interface SepClient {
  readonly dcapPath: string;
  get<N extends SepResourceName>(href: string, names: readonly N[], siteId?: number): Promise<SepResources[N]>;
  send<N extends SepResourceName>(
    method: "PUT" | "POST",
    href: string,
    name: N,
    resource: SepResources[N],
    siteId?: number,
  ): Promise<SentReply>;
  close(): void;
}

interface RawReply {
  status: number;
  body: string;
  location?: string;
}

export function createSepClient(options: SepClientOptions): SepClient {
  const base = new URL(options.dcapUrl);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 4,
    cert: options.cert,
    key: options.key,
    ca: options.ca,
    minVersion: "TLSv1.2",
  });
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1 << 20;

  // Lists polled again and again mostly come back byte for byte the same: decoded once.
  const decoded = createDecodeCache(options.decodedPaths);

  function exchange(method: string, url: URL, body?: string): Promise<RawReply> {
    return new Promise((resolve, reject) => {
      const req = request(url, {
        method,
        agent,
        headers: {
          Accept: SEP_XML,
          ...(body === undefined ? {} : { "Content-Type": SEP_XML, "Content-Length": Buffer.byteLength(body) }),
        },
      });
      // Connect: until the socket is up (a reused keep-alive socket is up already).
      const connectTimer = setTimeout(
        () => req.destroy(new GridHttpError(`connect to ${url.host} timed out`, 0)),
        connectTimeoutMs,
      );
      req.on("socket", (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once("secureConnect", () => clearTimeout(connectTimer));
      });
      const responseTimer = setTimeout(
        () => req.destroy(new GridHttpError(`${method} ${url.pathname} got no answer in time`, 0)),
        responseTimeoutMs,
      );
      const done = () => {
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
      };
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) {
            done();
            req.destroy(new GridHttpError(`${method} ${url.pathname} answered more than ${maxBodyBytes} bytes`, 0));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          done();
          const location = res.headers.location ? new URL(res.headers.location, url).pathname : undefined;
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), location });
        });
        res.on("error", (error) => {
          done();
          reject(error);
        });
      });
      req.on("error", (error) => {
        done();
        reject(error instanceof GridHttpError ? error : new GridHttpError(`${method} ${url.pathname}: ${error.message}`, 0));
      });
      req.end(body);
    });
  }

  async function counted(method: string, url: URL, body?: string): Promise<RawReply> {
    try {
      const reply = await exchange(method, url, body);
      options.onRequest?.(method, reply.status);
      return reply;
    } catch (error) {
      options.onRequest?.(method, 0);
      throw error;
    }
  }

  const pathOf = (url: URL) => url.pathname + url.search;

  return {
    dcapPath: base.pathname,
    async get(href, names, siteId) {
      const url = new URL(href, base);
      const path = pathOf(url);
      const reply = await counted("GET", url);
      let name: string | null = null;
      let resource: Record<string, unknown> | undefined;
      let failure: Error | undefined;
      if (reply.status >= 200 && reply.status < 300) {
        try {
          ({ name, resource } = decoded.decode(url.href, reply.body));
        } catch (error) {
          failure = error as SepXmlError;
        }
      } else {
        failure = new GridHttpError(`GET ${path} answered ${reply.status}`, reply.status);
        name = /<(?:\w+:)?(\w+)[\s>]/.exec(reply.body.replace(/<\?xml[^>]*>/, ""))?.[1] ?? null;
      }
      options.onExchange?.({
        direction: GRID_DIRECTIONS.received,
        method: "GET",
        path,
        status: reply.status,
        resource: name,
        body: reply.body,
        siteId,
      });
      if (failure) throw failure;
      if (!(names as readonly string[]).includes(name ?? ""))
        throw new SepXmlError(`Expected ${names.join(" or ")}, got ${name}`);
      return resource as unknown as SepResources[(typeof names)[number]];
    },
    async send(method, href, name, resource, siteId) {
      const body = encodeSep(name, resource);
      const url = new URL(href, base);
      const path = pathOf(url);
      let reply: RawReply | undefined;
      try {
        reply = await counted(method, url, body);
      } finally {
        options.onExchange?.({
          direction: GRID_DIRECTIONS.sent,
          method,
          path,
          status: reply?.status ?? null,
          resource: name,
          body,
          siteId,
        });
      }
      if (reply.status < 200 || reply.status >= 300)
        throw new GridHttpError(`${method} ${path} answered ${reply.status}`, reply.status);
      return { status: reply.status, location: reply.location };
    },
    close: () => agent.destroy(),
  };
}
