import type { Plugin } from "vite";

const ID = "virtual:ess-api-paths";
const RESOLVED = `\0${ID}`;

interface RouteLike {
  method: string;
  path: string;
  raw?: boolean;
}

const isRoute = (value: unknown): value is RouteLike =>
  typeof value === "object" && value !== null && "method" in value && "path" in value && "access" in value;

/**
 * The web calls the API through the contracts, but only needs each route's method and path at run
 * time. This virtual module carries just those, generated from `@ess/contracts` at build time, so
 * the console does not ship zod and every schema (about 60 KB gzipped) to the sign-in page.
 * `src/api/api.ts` gives it the contracts' types back.
 */
export function apiPaths(): Plugin {
  return {
    name: "ess-api-paths",
    resolveId: (id) => (id === ID ? RESOLVED : null),
    async load(id) {
      if (id !== RESOLVED) return null;
      const contracts = (await import("@ess/contracts")) as Record<string, unknown>;
      const strip = (group: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(group)
            .filter(([, route]) => isRoute(route))
            .map(([name, route]) => {
              const { method, path, raw } = route as RouteLike;
              return [name, raw ? { method, path, raw } : { method, path }];
            }),
        );
      const api = Object.fromEntries(
        Object.entries(contracts.API as Record<string, Record<string, unknown>>).map(([name, group]) => [name, strip(group)]),
      );
      // The token client's basic credential, so the browser need not load the contract module.
      const tokenClient = (contracts.tokenClientAuthorization as () => string)();
      return `export const API = ${JSON.stringify(api)};\nexport const TOKEN_CLIENT_AUTHORIZATION = ${JSON.stringify(tokenClient)};\n`;
    },
  };
}
