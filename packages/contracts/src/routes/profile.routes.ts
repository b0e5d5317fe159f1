import { GENDER_VALUES, isBirthDate } from "@ess/domain";
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { id, text } from "../text.ts";
import { phoneNumber } from "./mobile.routes.ts";

/** Personal information as its owner edits it (spec §5: name, gender, date of birth and phone required). */
export const profileInput = z.object({
  name: text().trim().min(1).max(64),
  gender: z
    .number()
    .int()
    .refine((v) => (GENDER_VALUES as readonly number[]).includes(v), { message: "validation:invalid" })
    .meta({ label: "fields:gender" }),
  birthDate: text()
    .trim()
    .refine((v) => isBirthDate(v), { message: "validation:birthDate" })
    .meta({ label: "fields:birthDate" }),
  // Left empty reads "required", not "not a valid telephone number".
  phone: z
    .preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), phoneNumber)
    .meta({ label: "fields:phone" }),
  /** A picture the caller uploaded (`/app/media/upload`), or none. */
  avatar: id().nullable().default(null).meta({ label: "fields:avatar" }),
});
export type ProfileInput = z.infer<typeof profileInput>;

export const profileRecord = z.object({
  username: z.string(),
  name: z.string(),
  gender: z.number().int().nullable(),
  birthDate: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.number().int().nullable(),
  avatarUrl: z.string().nullable(),
});
export type ProfileRecord = z.infer<typeof profileRecord>;

/** The caller's own personal information (spec §2 /info/index). */
export const profileRoutes = {
  get: defineRoute({
    method: "GET",
    path: "/sys/user/profile",
    summary: "The caller's personal information",
    tags: ["auth"],
    access: { signedIn: true },
    data: profileRecord,
    scope: { entity: "self" },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/sys/user/profile/edit",
    summary: "Change the caller's name, gender, date of birth, phone (stored in E.164) and avatar (a picture they uploaded)",
    tags: ["auth"],
    access: { signedIn: true },
    body: profileInput,
    data: profileRecord,
    scope: { entity: "self" },
  }),
} as const;
