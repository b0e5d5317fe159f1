import { API as paths, TOKEN_CLIENT_AUTHORIZATION } from "virtual:ess-api-paths";
import type * as Contracts from "@ess/contracts";

/**
 * The API's routes for the web: the same objects as `@ess/contracts`' `API` as far as the types
 * go (inputs and answers are inferred from the zod schemas), but at run time only method and path,
 * so no schema code reaches the browser. Web code imports `API` from here, not from the contracts.
 */
export const API = paths as unknown as typeof Contracts.API;

/** The basic authorisation token calls carry (the contracts' TOKEN_CLIENT, computed at build time). */
export const tokenClientAuthorization = () => TOKEN_CLIENT_AUTHORIZATION;
