import type { ReminderMessage } from "@ess/contracts";
import { loadAllResources } from "@ess/i18n/node";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { reminderText } from "./alarm-notice.ts";

const i18n = i18next.createInstance();
beforeAll(() => i18n.init({ resources: loadAllResources(), lng: "en-US", interpolation: { escapeValue: false } }));

const base = { id: "r1", title: "fallback", content: "fallback", sentAt: "2026-01-01T00:00:00.000Z", from: null };
const reminder = (notice: ReminderMessage["notice"]): ReminderMessage => ({ ...base, notice });
const storm = { deviceId: null, sn: null, level: null, info: null, windowS: 60 };
const stalled: ReminderMessage = {
  ...base,
  system: { kind: "ingestStalled", client: "ess-server-node1", silentS: 61, devices: 1200 },
};

describe("system health reminders", () => {
  it("are worded in the console's language with their facts, not as the server sent them", () => {
    const en = reminderText(stalled, i18n.getFixedT("en-US"), "en-US");
    expect(en.title).toBe("Device data stopped arriving");
    expect(en.content).toContain("ess-server-node1");
    expect(en.content).toContain("61 s");
    expect(en.content).toContain("1200 devices");
    const ja = reminderText(stalled, i18n.getFixedT("ja"), "ja");
    expect(ja.title).toBe("デバイスデータが届いていません");
    expect(ja.content).toContain("1200 台");
  });

  it("say when device data arrives again", () => {
    const resumed = {
      ...stalled,
      system: { client: "ess-server-node1", silentS: 61, devices: 1200, kind: "ingestResumed" as const },
    };
    expect(reminderText(resumed, i18n.getFixedT("en-US"), "en-US").title).toBe("Device data arriving again");
  });

  it("word a grid site's PIN mismatch in the console's language, naming the device", () => {
    const pin: ReminderMessage = { ...base, system: { kind: "gridPinMismatch", sn: "AU0001" } };
    const en = reminderText(pin, i18n.getFixedT("en-US"), "en-US");
    expect(en.title).toBe("Grid site registration PIN differs");
    expect(en.content).toContain("AU0001");
    const ja = reminderText(pin, i18n.getFixedT("ja"), "ja");
    expect(ja.title).toBe("系統サイトの登録 PIN が一致しません");
    expect(ja.content).toContain("AU0001");
  });

  it("leave other reminders as sent", () => {
    const plain = { ...stalled, system: undefined, title: "Maintenance", content: "Tonight at 22:00" };
    expect(reminderText(plain, i18n.getFixedT("en-US"), "en-US")).toEqual({ title: "Maintenance", content: "Tonight at 22:00" });
  });
});

describe("alarm reminders worded in the console's language", () => {
  it("words a storm summary and its follow-up counting every device of the window", () => {
    const t = i18n.getFixedT("en-US");
    expect(reminderText(reminder({ kind: "storm", ...storm, code: 2001, devices: 12, final: false }), t, "en-US")).toEqual({
      title: "Alarm storm",
      content: "Code 2001 raised on 12 devices",
    });
    expect(reminderText(reminder({ kind: "storm", ...storm, code: 2001, devices: 50, final: true }), t, "en-US").content).toBe(
      "Code 2001: 50 devices in all within 60 s",
    );
  });

  it("words a fleet coming on or going off line at once", () => {
    const t = i18n.getFixedT("it");
    expect(reminderText(reminder({ kind: "onlineStorm", ...storm, code: null, devices: 50 }), t, "it")).toEqual({
      title: "Dispositivi online",
      content: "50 dispositivi sono tornati online",
    });
    expect(
      reminderText(reminder({ kind: "offlineStorm", ...storm, code: null, devices: 50, final: true }), t, "it").content,
    ).toBe("50 dispositivi in tutto sono andati offline entro 60 s");
  });

  it("shows a code the catalogue lacks by the text the reminder carries in the console's language", () => {
    const info = { "en-US": "Unknown fault (code 4242)", ja: "不明な故障（コード 4242）" };
    const notice = { kind: "alarm" as const, deviceId: 7, sn: "SN7", code: 4242, level: 2, devices: null, info };
    expect(reminderText(reminder(notice), i18n.getFixedT("ja"), "ja").content).toBe("SN7：4242 不明な故障（コード 4242）");
  });
});
