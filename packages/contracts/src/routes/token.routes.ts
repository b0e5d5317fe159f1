import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/**
 * Token refresh (spec §7): query `grant_type=refresh_token`, `scope=server`, `refresh_token`;
 * headers TENANT-ID and the client's basic authorisation, no user token. Rotates the refresh
 * token; a reused refresh token revokes its whole family.
 *
 * Identity implements this route (and adds it to `API`); the console shell's refresh loop calls it.
 */
export const refreshAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
});

/**
 * The fixed client credential token calls carry as basic authorisation (spec §6). It names the
 * console as the calling client; it is public (shipped in the web bundle), not a secret.
 */
export const TOKEN_CLIENT = { id: "ess-console", secret: "ess-console" } as const;
export const tokenClientAuthorization = () => `Basic ${btoa(`${TOKEN_CLIENT.id}:${TOKEN_CLIENT.secret}`)}`;

export const tokenRoutes = {
  refresh: defineRoute({
    method: "POST",
    path: "/auth/oauth/token",
    summary: "Exchange a refresh token for new tokens (rotating it)",
    tags: ["auth"],
    access: { public: true },
    query: z.object({
      grant_type: z.literal("refresh_token"),
      scope: z.literal("server"),
      refresh_token: text().min(20).max(200),
    }),
    data: refreshAnswer,
    secrets: ["refresh_token"],
    demo: "allowed",
  }),
} as const;
