import { next, type Sample, type SampleContext } from "./every-change.context.ts";

const names = (text: string) => ({ "zh-CN": `${text}（中文）`, "en-US": text });
const faqClass = (c: SampleContext) => c.post("/admin/faq/classification/save", { name: names("Walk"), summary: "Walk" });
const country = (c: SampleContext) =>
  c.post("/admin/region/save", { parentId: null, grade: 0, code: `C${next()}`, name: names("Walk") });
/** A valid 1×1 picture (the media store sniffs the bytes and decodes them). */
export const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
/** A banner's body, its picture recorded straight in the media table (the walk sends JSON only). */
const walkBanner = async (c: SampleContext) => {
  const key = `${next()}${"0".repeat(32)}`.replace(/[^0-9a-f]/g, "0").slice(0, 32);
  const { rows } = await c.db.query<{ id: number }>(
    `INSERT INTO media (tenant_id, key, kind, sha256, content_type, name, size) VALUES (1, $1, 'image', $2, 'image/png', 'walk.png', 1)
     RETURNING id`,
    [key, "0".repeat(64)],
  );
  return { kind: 1, title: `Walk ${next()}`, language: "en-US", imageId: rows[0]?.id as number, state: 1 };
};
const walkArticle = () => ({ title: `Walk ${next()}`, type: 2, language: "en-US", content: "<p>Walk</p>", state: 1 });

/**
 * Change samples of the content and customer-service back office (messages, feedback, FAQ,
 * regions, articles, banners, media, referrals, personal information), part of CHANGE_SAMPLES.
 */
export const CONTENT_CHANGE_SAMPLES: Record<string, Sample> = {
  "profile.edit": async (c) => ({
    token: (await c.account()).token,
    body: { name: "Walk Er", gender: 3, birthDate: "1990-05-17", phone: "+39 333 1234567" },
  }),
  "referral.saveBank": async (c) => ({
    token: (await c.account({ userType: 2 })).token,
    body: { bsb: "062 000", accountNumber: "87654321", accountName: "Walk Payee" },
  }),
  "referral.claim": async (c) => {
    const { code, deviceSn, referee } = await c.referralParties();
    return { token: referee.token, body: { code, deviceSn } };
  },
  "referral.modify": async (c, token) => ({ token, body: { referralCashbackId: (await c.cashback()).id, cashOutState: 1 } }),
  "faq.classSave": async (_, token) => ({ token, body: { name: names("Walk"), summary: "Walk" } }),
  "faq.classEdit": async (c, token) => ({
    token,
    body: { id: (await faqClass(c)).id, name: names("Walked"), summary: "Walked", sort: 2 },
  }),
  "faq.classDel": async (c, token) => ({ token, body: { id: (await faqClass(c)).id } }),
  "faq.problemSave": async (c, token) => ({
    token,
    body: { classificationId: (await faqClass(c)).id, title: names("Walk"), content: names("Walk") },
  }),
  "faq.problemEdit": async (c, token) => {
    const classificationId = (await faqClass(c)).id;
    const { id } = await c.post("/admin/faq/problem/save", { classificationId, title: names("Walk"), content: names("Walk") });
    return { token, body: { id, classificationId, title: names("Walked"), content: names("Walked"), state: 0 } };
  },
  "faq.problemDel": async (c, token) => {
    const classificationId = (await faqClass(c)).id;
    const { id } = await c.post("/admin/faq/problem/save", { classificationId, title: names("Walk"), content: names("Walk") });
    return { token, body: { id } };
  },
  "region.save": async (_, token) => ({ token, body: { parentId: null, grade: 0, code: `W${next()}`, name: names("Walk") } }),
  "region.edit": async (c, token) => ({
    token,
    body: { id: (await country(c)).id, parentId: null, grade: 0, code: `E${next()}`, name: names("Walked"), sort: 3 },
  }),
  "region.del": async (c, token) => ({ token, body: { id: (await country(c)).id } }),
  "media.appUpload": async (c) => ({
    token: (await c.account({ userType: 2 })).token,
    query: { fileName: `own-${next()}.png` },
    body: ONE_PIXEL_PNG,
    headers: { "content-type": "application/octet-stream" },
  }),
  "media.upload": async (_, token) => ({
    token,
    query: { fileName: `walk-${next()}.png`, kind: "image" },
    body: ONE_PIXEL_PNG,
    headers: { "content-type": "application/octet-stream" },
  }),
  "article.save": async (_, token) => ({ token, body: walkArticle() }),
  "article.edit": async (c, token) => ({
    token,
    body: { ...walkArticle(), id: (await c.post("/admin/lsydatacenter/save", walkArticle())).id, title: "Walked" },
  }),
  "article.del": async (c, token) => ({
    token,
    body: { id: (await c.post("/admin/lsydatacenter/save", walkArticle())).id },
  }),
  "banner.save": async (c, token) => ({ token, body: await walkBanner(c) }),
  "banner.edit": async (c, token) => {
    const body = await walkBanner(c);
    return { token, body: { ...body, id: (await c.post("/admin/banner/save", body)).id, title: "Walked" } };
  },
  "banner.del": async (c, token) => ({ token, body: { id: (await c.post("/admin/banner/save", await walkBanner(c))).id } }),
  "message.save": async (_, token) => ({
    token,
    body: { title: "Walk", summary: "Walk", content: "<p>Walk</p>", terminal: "both", audience: "everyone" },
  }),
  "message.edit": async (c, token) => ({
    token,
    body: {
      id: (await walkMessage(c)).id,
      title: "Walked",
      summary: "Walked",
      content: "Walked",
      terminal: "app",
      audience: "everyone",
    },
  }),
  "message.publish": async (c, token) => ({ token, body: { id: (await walkMessage(c)).id } }),
  "message.recall": async (c, token) => ({ token, body: { id: (await walkMessage(c, true)).id } }),
  "message.del": async (c, token) => ({ token, body: { id: (await walkMessage(c)).id } }),
  "inbox.read": async (c) => {
    const who = await c.account();
    const message = await c.post("/admin/message/save", {
      title: "Walk",
      summary: "Walk",
      content: "Walk",
      terminal: "web",
      audience: "users",
      userIds: [who.id],
    });
    await c.post("/admin/message/publish", { id: message.id });
    return { token: who.token, body: { id: message.id } };
  },
  "appInbox.read": async (c) => {
    const who = await c.account({ userType: 2 });
    const message = await walkMessage(c, true, who.id);
    return { token: who.token, body: { id: message.id } };
  },
  "appFeedback.submit": async (c) => ({
    token: (await c.account({ userType: 2 })).token,
    body: { type: 1, content: "Walk", contact: "walk@example.com", pictures: null },
  }),
  "feedback.open": async (c, token) => ({ token, body: { id: (await walkFeedback(c)).id } }),
  "feedback.handle": async (c, token) => ({
    token,
    body: { id: (await walkFeedback(c)).id, state: 2, assigneeId: null, reply: "Walk" },
  }),
};

/** A draft message to one new end user (published when asked). */
async function walkMessage(c: SampleContext, publish = false, userId?: number) {
  const to = userId ?? (await c.account({ userType: 2, signIn: false })).id;
  const message = await c.post("/admin/message/save", {
    title: "Walk",
    summary: "Walk",
    content: "Walk",
    terminal: "app",
    audience: "users",
    userIds: [to],
  });
  if (publish) await c.post("/admin/message/publish", { id: message.id });
  return message;
}

/** A feedback item of a new end user. */
async function walkFeedback(c: SampleContext) {
  const who = await c.account({ userType: 2 });
  return c.post("/app/feedback/save", { type: 0, content: "Walk" }, who.token);
}
