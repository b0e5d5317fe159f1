import { bearer } from "./accounts.ts";
import type { World } from "./channel-world.ts";
import type { TestApp } from "./test-app.ts";

/** Calls the API as one account of the channel world, in a chosen language. */
export function worldClient(t: TestApp, world: World) {
  return {
    get: async (url: string, who: string, lang = "en-US") =>
      t.app.inject({ method: "GET", url, headers: { ...bearer(await world.token(who)), "accept-language": lang } }),
    post: async (url: string, who: string, payload: object, lang = "en-US") =>
      t.app.inject({ method: "POST", url, payload, headers: { ...bearer(await world.token(who)), "accept-language": lang } }),
  };
}
