import type { RouteAccess } from "@ess/domain";
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Kinds of records that belong to somebody in the channel hierarchy and so pass the data scope. */
export const SCOPED_ENTITIES = [
  "organisation",
  "user",
  "device",
  "log",
  "cancellation",
  "campaign",
  "bulk",
  "message",
  "feedback",
  "referral",
] as const;
export type ScopedEntity = (typeof SCOPED_ENTITIES)[number];

/** Where a record id travels in a request: `query.id`, `body.id`, `body.ids`, `params.id`. */
export interface ScopedRef {
  readonly in: "query" | "body" | "params";
  readonly field: string;
  readonly entity: ScopedEntity;
  /** An array of ids rather than one. */
  readonly many?: boolean;
}

/**
 * What a route reads or changes, for the data scope (DESIGN §3): records of a scoped entity
 * (each passes the caller's scope; `refs` lists the ids it accepts), tenant-wide configuration
 * (menus, roles), or only the caller's own account. The authorisation test walks every route by
 * this declaration; a route that reaches data must declare it.
 */
export type RouteScope =
  | { readonly entity: ScopedEntity; readonly refs?: readonly ScopedRef[] }
  | { readonly entity: "tenant" }
  | { readonly entity: "self" };

/**
 * One HTTP route as data: the server registers a handler for it, validates with its schemas and
 * documents it in OpenAPI; the web's client calls it with inferred types.
 * `path` uses Fastify's `:param` syntax. `data` is the schema of the envelope's `data`, unless
 * `raw` is set (health probes, files), in which case it is the whole body.
 */
export interface RouteContract {
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly access: RouteAccess;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly params?: z.ZodType;
  readonly data: z.ZodType;
  readonly raw?: boolean;
  /** Which records the route reaches (see RouteScope); required for routes behind a permission. */
  readonly scope?: RouteScope;
  /** Changes are written to the operation log unless this is false (e.g. the log upload itself). */
  readonly audit?: boolean;
  /** Extra request fields masked in the operation log (passwords and tokens are always masked). */
  readonly secrets?: readonly string[];
  /**
   * Demo mode (spec §8): changes answer 423, except routes marked `allowed` that a visitor needs
   * (sign-in, sign-out); routes marked `hidden` (other people's personal data) answer 479 even to reads.
   */
  readonly demo?: "allowed" | "hidden";
}

export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type ParsedOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller sends (before defaults and coercion). */
export type RouteInput<C extends RouteContract> = {
  query: InputOf<C["query"]>;
  body: InputOf<C["body"]>;
  params: InputOf<C["params"]>;
};
/** What a handler receives (after validation). */
export type RouteParsed<C extends RouteContract> = {
  query: ParsedOf<C["query"]>;
  body: ParsedOf<C["body"]>;
  params: ParsedOf<C["params"]>;
};
export type RouteData<C extends RouteContract> = z.output<C["data"]>;

/** Fills `:name` segments of a route path. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
