import { ACCOUNT_RULE, isTimeZone } from "@ess/domain";
import { z } from "zod";
import { newPassword } from "./routes/auth.routes.ts";
import { phoneNumber } from "./routes/mobile.routes.ts";
import { plain, text } from "./text.ts";

/** Field rules of accounts and organisations, shared by every identity route and form. */
export const accountName = text().trim().min(ACCOUNT_RULE.min).max(ACCOUNT_RULE.max).regex(ACCOUNT_RULE.pattern);
export const personName = text().trim().min(1).max(64);
export const optionalText = (max: number) => text().trim().max(max).default("");
export const email = plain(z.email()).max(254);
/** An optional e-mail: absent, null or empty means none. */
export const optionalEmail = z.preprocess((v) => (v === "" ? null : v), email.nullable().default(null));
export const optionalPhone = z.preprocess((v) => (v === "" ? null : v), phoneNumber.nullable().default(null));
export const timeZone = text().trim().refine(isTimeZone, { message: "validation:timeZone" });
export const optionalTimeZone = z.preprocess((v) => (v === "" ? null : v), timeZone.nullable().default(null));
export const initialPassword = newPassword;
/** Timestamps travel as ISO 8601 text. */
export const instant = z.string();
