import { z } from "zod";
import { defineRoute } from "../route.ts";
import { alarmNotice } from "../routes/fault.routes.ts";

export * from "./destinations.ts";

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
});
export type ReminderMessage = z.infer<typeof reminderMessage>;

export const sendReminderBody = z.object({
  userId: z.number().int().positive(),
  title: z.string().trim().min(1).max(100),
  content: z.string().trim().min(1).max(1000),
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
