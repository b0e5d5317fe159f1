import type { ReminderMessage } from "@ess/contracts";
import type { TFunction } from "i18next";

/**
 * The title and text of a reminder in the console's language: alarm, storm and on/off-line
 * reminders (and their storm summaries) carry their facts (`notice`), system health and grid PIN reminders
 * theirs (`system`), so they are worded here; others show as sent. A code the fault catalogue lacks comes
 * with "unknown fault" as its text.
 */
export function reminderText(reminder: ReminderMessage, t: TFunction, language: string): { title: string; content: string } {
  const s = reminder.system;
  if (s?.kind === "gridPinMismatch")
    return { title: t("health:grid.pinMismatchTitle"), content: t("health:grid.pinMismatchContent", { sn: s.sn }) };
  if (s) {
    const key = s.kind === "ingestStalled" ? "stalled" : "resumed";
    const values = { client: s.client, seconds: s.silentS, devices: s.devices };
    return { title: t(`health:ingest.${key}Title`), content: t(`health:ingest.${key}Content`, values) };
  }
  const n = reminder.notice;
  if (!n) return { title: reminder.title, content: reminder.content };
  const info = n.info?.[language] ?? n.info?.["en-US"] ?? "";
  switch (n.kind) {
    case "alarm":
      return {
        title: t("alarms:notice.alarmTitle", { level: n.level }),
        content: t("alarms:notice.alarmContent", { sn: n.sn, code: n.code, info }),
      };
    case "storm":
      return {
        title: t("alarms:notice.stormTitle"),
        content: t(n.final ? "alarms:notice.stormFinalContent" : "alarms:notice.stormContent", {
          code: n.code,
          devices: n.devices,
          seconds: n.windowS,
        }),
      };
    case "online":
      return { title: t("alarms:notice.onlineTitle"), content: t("alarms:notice.onlineContent", { sn: n.sn }) };
    case "offline":
      return { title: t("alarms:notice.offlineTitle"), content: t("alarms:notice.offlineContent", { sn: n.sn }) };
    case "onlineStorm":
    case "offlineStorm":
      return {
        title: t(`alarms:notice.${n.kind}Title`),
        content: t(n.final ? `alarms:notice.${n.kind}FinalContent` : `alarms:notice.${n.kind}Content`, {
          devices: n.devices,
          seconds: n.windowS,
        }),
      };
  }
}
