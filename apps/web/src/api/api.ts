import { GROUPS, API as paths } from "virtual:ess-api-paths";
import type * as Contracts from "@ess/contracts";

/**
 * The API's routes for the web: the same objects as `@ess/contracts`' `API` as far as the types
 * go (inputs and answers are inferred from the zod schemas), but at run time only method and path,
 * so no schema code reaches the browser. Web code imports `API` from here, not from the contracts.
 */
export const API = paths as unknown as typeof Contracts.API;

type RouteGroups = { [K in keyof typeof Contracts as K extends `${string}Routes` ? K : never]: (typeof Contracts)[K] };

/** Route groups not (yet) in `API` — e.g. contracts another module implements — by export name. */
export const ROUTES = GROUPS as unknown as RouteGroups;
