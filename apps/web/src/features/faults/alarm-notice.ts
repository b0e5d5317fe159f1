import type { ReminderMessage } from "@ess/contracts";
import type { TFunction } from "i18next";

/**
 * The title and text of a reminder in the console's language: alarm, storm and on/off-line
 * reminders carry their facts (`notice`), so they are worded here; others show as sent.
 */
export function reminderText(reminder: ReminderMessage, t: TFunction, language: string): { title: string; content: string } {
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
        content: t("alarms:notice.stormContent", { code: n.code, devices: n.devices }),
      };
    case "online":
      return { title: t("alarms:notice.onlineTitle"), content: t("alarms:notice.onlineContent", { sn: n.sn }) };
    case "offline":
      return { title: t("alarms:notice.offlineTitle"), content: t("alarms:notice.offlineContent", { sn: n.sn }) };
  }
}
