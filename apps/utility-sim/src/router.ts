import { type PageRequest, pageRequest, type SepResourceName, type SepResources } from "@ess/sep2";
import type { EndDeviceRecord, UtilityState } from "./state.ts";
import type { TimeZone } from "./views.ts";

/** Who is calling: the identity of the client certificate presented in the TLS handshake. */
export interface Caller {
  lfdi: string;
  sfdi: string;
}

export interface RequestContext {
  caller: Caller;
  /** Path segments captured by the route's pattern. */
  params: string[];
  query: URLSearchParams;
  body: string;
  state: UtilityState;
  /** Server time, TimeType seconds. */
  now: number;
  /** Server time, ms (for records). */
  nowMs: number;
  zone: TimeZone;
}

export type SepDocument = { [N in SepResourceName]: { name: N; resource: SepResources[N] } }[SepResourceName];

export interface Reply {
  status: number;
  document?: SepDocument;
  location?: string;
}

export type Handler = (context: RequestContext) => Reply;
export type Method = "GET" | "PUT" | "POST" | "DELETE";

export interface Route {
  pattern: RegExp;
  methods: Partial<Record<Method, Handler>>;
}

/** A refusal with its HTTP status and IEEE 2030.5 Error reasonCode. */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly reasonCode: number;
  constructor(status: number, message: string, reasonCode = 1) {
    super(message);
    this.status = status;
    this.reasonCode = reasonCode;
  }
}

export function ok(document: SepDocument): Reply {
  return { status: 200, document };
}

/** A document answer helper that keeps the name/resource pairing typed. */
export function doc<N extends SepResourceName>(name: N, resource: SepResources[N]): SepDocument {
  return { name, resource } as SepDocument;
}

/** Reads `s`/`l`; malformed values are a 400. */
export function page(context: RequestContext): PageRequest {
  try {
    return pageRequest(context.query);
  } catch (error) {
    throw new HttpError(400, (error as Error).message, 1);
  }
}

/** An EndDevice of the caller by the id in the path, or 404 (others' EndDevices are not disclosed). */
export function ownEndDevice(context: RequestContext, idText: string | undefined): EndDeviceRecord {
  const id = Number(idText);
  const record = context.state.endDevices.get(id);
  if (!record || (record.ownerLfdi !== context.caller.lfdi && record.lfdi !== context.caller.lfdi))
    throw new HttpError(404, "No such EndDevice");
  return record;
}

/** A positive whole number from the path, or 404. */
export function pathId(text: string | undefined): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new HttpError(404, "No such resource");
  return Number(text);
}

/** The route and captured segments for a path, or undefined. */
export function matchRoute(routes: readonly Route[], path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1) };
  }
  return undefined;
}
