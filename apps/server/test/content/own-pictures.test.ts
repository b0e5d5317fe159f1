import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/** A valid 1×1 picture. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Pictures a signed-in user uploads of their own (an avatar, their feedback's pictures, a
 * message's cover): only pictures, only their own where it is theirs, shown by their links.
 */
let t: TestApp;
let admin: string;
let ana: string;
let ben: string;
const as = (token: () => string) => apiCaller(() => t.app, token);
const upload = async (token: string, bytes: Buffer, fileName = "me.png") => {
  const r = await t.app.inject({
    method: "POST",
    url: `/app/media/upload?fileName=${fileName}`,
    payload: bytes,
    headers: { ...bearer(token), "content-type": "application/octet-stream", "accept-language": "en-US" },
  });
  return { status: r.statusCode, body: r.json() as { msg: string; data: { id: number; url: string } } };
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  await createAccount(t.db, { username: "ana", userType: 2, roles: ["END_USER"] });
  await createAccount(t.db, { username: "ben", userType: 2, roles: ["END_USER"] });
  ana = await signIn(t.app, "ana", "Passw0rd1");
  ben = await signIn(t.app, "ben", "Passw0rd1");
});
afterAll(() => t.close());

describe("one's own pictures", () => {
  it("takes a picture from any signed-in user and refuses what is not one, by its name", async () => {
    const ok = await upload(ana, PIXEL);
    expect(ok.status).toBe(200);
    expect(ok.body.data.url).toMatch(/^\/media\/file\/[0-9a-f]{32}$/);
    const bad = await upload(ana, Buffer.from("not a picture at all"), "holiday.png");
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("holiday.png");
  });

  it("sets an avatar from one's own upload, never from someone else's", async () => {
    const mine = (await upload(ana, PIXEL)).body.data;
    const theirs = (await upload(ben, PIXEL)).body.data;
    const body = { name: "Ana", gender: 2, birthDate: "1990-03-01", phone: "+39 333 1234567" };
    const refused = await as(() => ana)("POST", "/sys/user/profile/edit", { ...body, avatar: theirs.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("Avatar: no such picture was found");
    const saved = await as(() => ana)<{ avatar: number; avatarUrl: string }>("POST", "/sys/user/profile/edit", {
      ...body,
      avatar: mine.id,
    });
    expect(saved.body.data).toMatchObject({ avatar: mine.id, avatarUrl: mine.url });
    const served = await t.app.inject({ method: "GET", url: mine.url });
    expect(served.headers["content-type"]).toBe("image/png");
  });

  it("attaches to feedback only pictures its submitter uploaded, and shows staff their links", async () => {
    const mine = (await upload(ben, PIXEL)).body.data;
    const theirs = (await upload(ana, PIXEL)).body.data;
    const refused = await as(() => ben)("POST", "/app/feedback/save", {
      type: 1,
      content: "The chart is cut",
      pictures: [theirs.id],
    });
    expect(refused.status).toBe(400);
    const sent = await as(() => ben)<{ id: number; pictureUrls: string[] }>("POST", "/app/feedback/save", {
      type: 1,
      content: "The chart is cut",
      pictures: [mine.id],
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.pictureUrls).toEqual([mine.url]);
    const staff = await as(() => admin)<{ records: { id: number; pictureUrls: string[] }[] }>("GET", "/admin/feedback/page");
    expect(staff.body.data.records.find((r) => r.id === sent.body.data.id)?.pictureUrls).toEqual([mine.url]);
  });

  it("gives a message a cover only if it is a picture of the console", async () => {
    const message = {
      title: "Maintenance",
      summary: "Tonight",
      content: "<p>From 22:00</p>",
      terminal: "app",
      audience: "everyone",
    };
    const missing = await as(() => admin)("POST", "/admin/message/save", { ...message, cover: 999_999 });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe("Cover photo: no such picture was found");
    const picture = (await upload(admin, PIXEL)).body.data;
    const saved = await as(() => admin)<{ cover: number; coverUrl: string }>("POST", "/admin/message/save", {
      ...message,
      cover: picture.id,
    });
    expect(saved.body.data).toMatchObject({ cover: picture.id, coverUrl: picture.url });
  });
});
