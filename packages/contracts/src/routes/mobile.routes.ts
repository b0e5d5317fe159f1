import { isPhoneNumber, normalisePhone, PHONE_MAX_LENGTH } from "@ess/domain";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";
import { sessionUser } from "./auth.routes.ts";

/** A telephone number (libphonenumber-js), answered in E.164: what accounts and sign-in store and compare. */
export const phoneNumber = text()
  .trim()
  .max(PHONE_MAX_LENGTH)
  .refine((v) => isPhoneNumber(v), { message: "validation:phone" })
  .transform((v) => normalisePhone(v) ?? v);

export const mobileTokenAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
  sfFirst: z.boolean(),
  user_info: sessionUser,
});

const socialState = text().regex(/^[A-Za-z0-9_-]{1,32}$/);

/**
 * Sign-in by SMS code or through a social account (spec §7). Codes go out through the server's
 * SMS sender (by default written to the server log). A number or social account that no user has
 * bound answers 417: sign in with the password, then bind it.
 */
export const mobileRoutes = {
  sendCode: defineRoute({
    method: "POST",
    path: "/auth/mobile/code",
    summary: "Send a sign-in code by SMS",
    tags: ["auth"],
    access: { public: true },
    body: z.object({ mobile: phoneNumber }),
    data: z.object({ expiresIn: z.number().int() }),
    demo: "allowed",
  }),
  sms: defineRoute({
    method: "POST",
    path: "/auth/mobile/token/sms",
    summary: "Sign in with a phone number and the code sent to it",
    tags: ["auth"],
    access: { public: true },
    query: z.object({
      grant_type: z.literal("mobile"),
      mobile: text()
        .regex(/^SMS@/)
        .transform((v) => v.slice(4))
        .pipe(phoneNumber),
      code: text().regex(/^\d{6}$/),
    }),
    data: mobileTokenAnswer,
    secrets: ["code"],
    demo: "allowed",
  }),
  social: defineRoute({
    method: "POST",
    path: "/auth/mobile/token/social",
    summary: "Sign in through a bound social account (mobile=state@code)",
    tags: ["auth"],
    access: { public: true },
    query: z.object({
      grant_type: z.literal("mobile"),
      mobile: text()
        .max(2048)
        .regex(/^[A-Za-z0-9_-]{1,32}@\S+$/),
    }),
    data: mobileTokenAnswer,
    secrets: ["mobile"],
    demo: "allowed",
  }),
  bindSocial: defineRoute({
    method: "POST",
    path: "/sys/user/social/bind",
    summary: "Bind a social account to the caller",
    tags: ["auth"],
    access: { signedIn: true },
    body: z.object({ state: socialState, code: text().min(1).max(2048) }),
    data: z.null(),
    scope: { entity: "self" },
    secrets: ["code"],
  }),
  unbindSocial: defineRoute({
    method: "POST",
    path: "/sys/user/social/unbind",
    summary: "Unbind the caller's social account of one provider",
    tags: ["auth"],
    access: { signedIn: true },
    body: z.object({ state: socialState }),
    data: z.null(),
    scope: { entity: "self" },
  }),
} as const;
