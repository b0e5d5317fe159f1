import type { RouteAccess } from "@ess/domain";
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

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
