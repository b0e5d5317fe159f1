import { isAcceptablePassword, PASSWORD_RULE } from "@ess/domain";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";
import { evenWithOtherIssues } from "../validation.ts";

export const account = text().trim().min(1).max(64);
export const password = text()
  .min(1)
  .max(PASSWORD_RULE.max * 4);

export const loginBody = z.object({
  username: account,
  password,
  /** Captcha: the random key the image was fetched with, and the characters read from it. */
  randomStr: text().max(64).optional(),
  code: text().max(16).optional(),
  /** Or the proof a solved slide puzzle gave (POST /code/check). */
  slideProof: text().max(128).optional(),
});

/** A new password: the rule of spec §5 (6–20 characters, letters and digits). */
export const newPassword = text().refine(isAcceptablePassword, { message: "validation:passwordRule" });

export const passwordChange = z
  .object({ oldPassword: password, newPassword, confirmPassword: text().min(1) })
  .superRefine((value, ctx) => {
    if (typeof value.confirmPassword === "string" && value.confirmPassword !== value.newPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation:passwordMismatch" });
    }
    if (typeof value.newPassword === "string" && value.newPassword === value.oldPassword) {
      ctx.addIssue({ code: "custom", path: ["newPassword"], message: "validation:passwordUnchanged" });
    }
  }, evenWithOtherIssues);

export const tokenAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int(),
  sfFirst: z.boolean(),
  tenant_id: z.number().int(),
  user_id: z.number().int(),
  username: z.string(),
  authorities: z.array(z.string()),
});
export type TokenAnswer = z.infer<typeof tokenAnswer>;

export const sessionUser = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  username: z.string(),
  name: z.string(),
  userType: z.number().int(),
  timeZone: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const userInfo = z.object({
  user: sessionUser,
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type UserInfo = z.infer<typeof userInfo>;

export const authRoutes = {
  login: defineRoute({
    method: "POST",
    path: "/login",
    summary: "Sign in with account and password",
    tags: ["auth"],
    access: { public: true },
    query: z.object({ grant_type: z.literal("admin") }),
    body: loginBody,
    data: tokenAnswer,
    secrets: ["code", "slideProof"],
    demo: "allowed",
  }),
  userInfo: defineRoute({
    method: "GET",
    path: "/sys/user/info",
    summary: "The signed-in user with roles and permissions",
    tags: ["auth"],
    access: { signedIn: true },
    data: userInfo,
    scope: { entity: "self" },
  }),
  logout: defineRoute({
    method: "POST",
    path: "/sys/logout",
    summary: "Sign out: revokes the caller's tokens",
    tags: ["auth"],
    access: { signedIn: true },
    data: z.null(),
    scope: { entity: "self" },
    demo: "allowed",
  }),
  /** Change one's own password (also the forced change at first sign-in). */
  passwordEdit: defineRoute({
    method: "POST",
    path: "/sys/user/password/edit",
    summary: "Change the caller's own password",
    tags: ["auth"],
    access: { signedIn: true },
    body: passwordChange,
    data: z.null(),
    scope: { entity: "self" },
  }),
} as const;
