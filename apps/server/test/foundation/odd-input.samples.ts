import type { ChangeRequest, SampleContext } from "./every-change.context.ts";

/**
 * A valid request for every read route that needs inputs, so that an odd value in one field meets
 * the route's own code rather than a refusal of the fields left out. Change routes start from
 * their change sample (every-change.samples.ts).
 */
export interface ReadWorld {
  device: { id: number; sn: string };
  user: number;
  org: number;
  role: number;
  menu: number;
  version: number;
  campaign: number;
  bulk: number;
  fileId: number;
  message: number;
  article: number;
  faqClass: number;
  mediaKey: string;
}

export async function readWorld(c: SampleContext, admin: string): Promise<ReadWorld> {
  const device = await c.device();
  const bulk = await c.post<{ bulkId: number }>("/admin/param/set/bulk", {
    filter: { deviceIds: [device.id] },
    command: 4,
    queueIfOffline: true,
  });
  const campaign = await c.campaign();
  const { rows } = await c.db.query<{ id: number; file_id: number }>(
    "SELECT id, file_id FROM firmware_version WHERE file_id IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  void admin;
  const article = await c.post("/admin/lsydatacenter/save", {
    title: "Odd",
    type: 1,
    language: "en-US",
    content: "<p>x</p>",
    state: 1,
  });
  const mediaKey = "0dd0dd0dd0dd0dd0dd0dd0dd0dd0dd00".slice(0, 32);
  await c.db.query(
    `INSERT INTO media (tenant_id, key, kind, sha256, content_type, name, size) VALUES (1, $1, 'image', $2, 'image/png', 'odd.png', 1)
     ON CONFLICT (key) DO NOTHING`,
    [mediaKey, "0".repeat(64)],
  );
  const faqClass = await c.post("/admin/faq/classification/save", {
    name: { "zh-CN": "奇怪", "en-US": "Odd" },
    summary: "Odd",
  });
  await c.post("/admin/faq/problem/save", {
    classificationId: faqClass.id,
    title: { "zh-CN": "奇怪", "en-US": "Odd" },
    content: { "zh-CN": "奇怪", "en-US": "Odd" },
  });
  return {
    article: article.id,
    faqClass: faqClass.id,
    mediaKey,
    device,
    user: (await c.endUser()).id,
    org: (await c.org()).id,
    role: (await c.role()).id,
    menu: (await c.menu()).id,
    version: rows[0]?.id as number,
    campaign: campaign.id,
    bulk: bulk.bulkId,
    fileId: rows[0]?.file_id as number,
    message: (
      await c.post("/admin/message/save", {
        title: "Walk",
        summary: "Walk",
        content: "Walk",
        terminal: "both",
        audience: "everyone",
      })
    ).id,
  };
}

const day = "2026-01-15";
export const READ_SAMPLES: Record<string, (w: ReadWorld) => ChangeRequest & { params?: Record<string, string> }> = {
  "menu.info": (w) => ({ query: { id: String(w.menu) } }),
  "captcha.image": () => ({ query: { randomStr: "oddinput-0001" } }),
  "captcha.slide": () => ({ query: { randomStr: "oddinput-0002" } }),
  "org.info": (w) => ({ query: { id: String(w.org) } }),
  "endUser.info": (w) => ({ query: { id: String(w.user) } }),
  "user.details": (w) => ({ params: { id: String(w.user) } }),
  "role.info": (w) => ({ query: { id: String(w.role) } }),
  "deviceTelemetry.pageRead": (w) => ({ query: { deviceId: String(w.device.id), val: "1" } }),
  "deviceTelemetry.latest": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "deviceTelemetry.dayCurve": (w) => ({ query: { deviceId: String(w.device.id), date: day } }),
  "deviceTelemetry.energy": (w) => ({ query: { deviceId: String(w.device.id), startDate: day, endDate: day } }),
  "deviceTelemetry.onlineLog": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "deviceSettings.records": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "deviceSettings.bulkOutcome": (w) => ({ query: { bulkId: String(w.bulk) } }),
  "registerVisibility.list": () => ({ query: { page: "1" } }),
  "registerVisibility.mine": () => ({ query: { page: "1" } }),
  "selfCheck.page": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "selfCheck.report": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "tariff.get": (w) => ({ query: { userId: String(w.user) } }),
  "tariff.ofDevice": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "tariff.revenue": (w) => ({ query: { deviceId: String(w.device.id), startDate: day, endDate: day } }),
  "generator.info": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "mode.switchRecords": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "alarm.statusLabels": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "alarm.page": (w) => ({ query: { deviceId: String(w.device.id), sn: w.device.sn } }),
  "ieee.receivePage": (w) => ({ query: { sn: w.device.sn } }),
  "ieee.sendPage": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "ieee.responsePage": (w) => ({ query: { sn: w.device.sn } }),
  "ieee.receiveExport": (w) => ({ params: { sn: w.device.sn } }),
  "ieee.sendExport": (w) => ({ params: { sn: w.device.sn } }),
  "ieee.commandPage": (w) => ({ query: { sn: w.device.sn } }),
  "powerGrid.get": (w) => ({ query: { sn: w.device.sn } }),
  "device.page": (w) => ({ query: { sn: w.device.sn } }),
  "device.info": (w) => ({ query: { id: String(w.device.id) } }),
  "statistics.revenue": (w) => ({ query: { deviceId: String(w.device.id), startDate: day, endDate: day } }),
  "statistics.export": (w) => ({ query: { deviceId: String(w.device.id), startDate: day, endDate: day } }),
  "appContent.faqSearch": () => ({ query: { keyword: "battery" } }),
  "appContent.faqProblems": (w) => ({ query: { classificationId: String(w.faqClass), size: "5" } }),
  "appContent.latestVersion": () => ({ query: { appType: "0", versionCode: "1.0" } }),
  "firmware.info": (w) => ({ query: { id: String(w.version) } }),
  "firmware.download": (w) => ({ params: { fileId: String(w.fileId) } }),
  "ota.records": (w) => ({ query: { deviceId: String(w.device.id) } }),
  "ota.info": (w) => ({ query: { id: String(w.campaign) } }),
  "ota.devices": (w) => ({ query: { id: String(w.campaign) } }),
  "ota.preview": (w) => ({ query: { sn: w.device.sn } }),
  "log.page": () => ({ query: { operation: "device.save" } }),
  "message.info": (w) => ({ query: { id: String(w.message) } }),
  "article.info": (w) => ({ query: { id: String(w.article) } }),
  "appContent.article": (w) => ({ query: { id: String(w.article) } }),
  "appContent.banners": () => ({ query: { kind: "1" } }),
  "media.file": (w) => ({ params: { key: w.mediaKey } }),
  "media.thumbnail": (w) => ({ params: { key: w.mediaKey } }),
};

/** Change routes outside the operation log (every-change.samples.ts has the others). */
export const UNAUDITED_SAMPLES: Record<string, (token: string) => ChangeRequest> = {
  "errorLog.upload": (token) => ({
    token,
    body: [
      {
        type: "error",
        url: "/admin/device",
        message: "Walk",
        stack: "Error: Walk\n    at walk (app.js:1:1)",
        info: null,
        time: "2026-01-15 10:00:00",
      },
    ],
  }),
  "captcha.slideCheck": () => ({ body: { randomStr: "oddinput-0003", x: 10 } }),
};
