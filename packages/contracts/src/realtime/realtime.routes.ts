import { z } from "zod";
import { defineRoute } from "../route.ts";
import { alarmNotice } from "../routes/fault.routes.ts";
import { text } from "../text.ts";

export * from "./destinations.ts";

/**
 * A notice about the console itself, for holders of `sys.health.view`: device messages stopped
 * reaching a console process through its broker connection while devices were online, or arrive
 * again (apps/server/src/modules/telemetry/ingest-watchdog.ts); or the utility's registration PIN
 * of a grid site differs from the installer's, so the site is no longer reported to the utility.
 */
export const ingestNotice = z.object({
  kind: z.enum(["ingestStalled", "ingestResumed"]),
  /** The console process's broker connection (its MQTT client id). */
  client: z.string(),
  /** Seconds without a device message when the stall was found. */
  silentS: z.number().int().nonnegative(),
  /** Devices of the recipient's tenant online then. */
  devices: z.number().int().nonnegative(),
});
export const gridPinNotice = z.object({
  kind: z.literal("gridPinMismatch"),
  /** The device whose grid site the utility refused to match. */
  sn: z.string(),
});
export const systemNotice = z.discriminatedUnion("kind", [ingestNotice, gridPinNotice]);
export type SystemNotice = z.infer<typeof systemNotice>;

/** A reminder as pushed to the user's reminder topic (STOMP MESSAGE body, JSON). */
export const reminderMessage = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  sentAt: z.string(),
  /** Who sent it: a user name, or null for the system. */
  from: z.string().nullable(),
  /** Set on alarm and on/off-line reminders (the alarm feature), so the console labels them itself. */
  notice: alarmNotice.optional(),
  /** Set on system health reminders, so the console words them itself. */
  system: systemNotice.optional(),
  /** Set on a published message's reminder: the message in the recipient's inbox. */
  messageId: z.number().int().optional(),
});
export type ReminderMessage = z.infer<typeof reminderMessage>;

export const sendReminderBody = z.object({
  userId: z.number().int().positive(),
  title: text().trim().min(1).max(100),
  content: text().trim().min(1).max(1000),
});

export const realtimeRoutes = {
  sendReminder: defineRoute({
    method: "POST",
    path: "/act/reminders",
    summary: "Push a reminder to a user the caller may reach (shown as a notice in their open consoles)",
    tags: ["realtime"],
    access: { permission: "realtime.reminder.send" },
    // The recipient must be a user the caller may reach through the data scope.
    scope: { entity: "user", refs: [{ in: "body", field: "userId", entity: "user" }] },
    body: sendReminderBody,
    data: z.object({ delivered: z.number().int().nonnegative() }),
  }),
} as const;
