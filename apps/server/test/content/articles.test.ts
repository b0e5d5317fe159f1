import { Jimp } from "jimp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, signInTokens } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/test-app.ts";

type Fields = { fields: { field: string; message: string }[] };
type Media = {
  id: number;
  url: string;
  thumbnailUrl: string | null;
  contentType: string;
  width: number | null;
  height: number | null;
};
type Article = {
  id: number;
  title: string;
  content: string;
  state: number;
  cover: Media | null;
  attachments: { name: string; url: string; contentType: string | null }[];
};
type Page<T> = { records: T[]; total: number };

let t: TestApp;
let staffToken = "";
let userToken = "";
const staff = apiCaller(
  () => t.app,
  () => staffToken,
);
const user = apiCaller(
  () => t.app,
  () => userToken,
);

const upload = (name: string, kind: "image" | "attachment", bytes: Buffer, language = "en-US") =>
  staff<Media & Fields>("POST", `/admin/media/upload?fileName=${encodeURIComponent(name)}&kind=${kind}`, bytes, {
    language,
    headers: { "content-type": "application/octet-stream" },
  });

const png = (width: number, height: number) =>
  new Jimp({ width, height, color: 0x3366ccff }).getBuffer("image/png").then((b) => Buffer.from(b));

const article = (over: Record<string, unknown> = {}) => ({
  title: "Winter care of your battery",
  type: 1,
  language: "en-US",
  terminal: 2,
  sketch: "Keep it warm",
  content: "<p>Hello</p>",
  state: 1,
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  staffToken = (await signInTokens(t.app, "admin", ADMIN_PASSWORD)).access_token;
  await createAccount(t.db, { username: "enduser1", userType: 2, password: "Passw0rd1" });
  userToken = (await signInTokens(t.app, "enduser1", "Passw0rd1")).access_token;
}, 60_000);
afterAll(async () => t?.close());

describe("media store", () => {
  it("refuses a text file named .png with a translated message naming the file, storing nothing", async () => {
    const before = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM media");
    const fake = await upload("holiday.png", "image", Buffer.from("just some text, not a picture"));
    expect(fake.status).toBe(400);
    expect(fake.body.data.fields).toEqual([
      { field: "fileName", message: "“holiday.png” is not a picture (PNG, JPEG, WebP or GIF)" },
    ]);
    const italian = await upload("vacanza.png", "image", Buffer.from("testo"), "it");
    expect(italian.body.data.fields[0]?.message).toBe("“vacanza.png” non è un'immagine (PNG, JPEG, WebP o GIF)");
    const chinese = await upload("假期.png", "image", Buffer.from("文本"), "zh-CN");
    expect(chinese.body.data.fields[0]?.message).toContain("“假期.png”不是图片");
    // A picture is not an accepted attachment, and a PNG header with nothing behind it is no picture.
    const wrongKind = await upload("manual.pdf", "attachment", await png(10, 10));
    expect(wrongKind.body.data.fields[0]?.message).toContain("is not an accepted attachment");
    const truncated = await upload("broken.png", "image", (await png(400, 300)).subarray(0, 60));
    expect(truncated.body.data.fields[0]?.message).toBe("“broken.png” is not a picture (PNG, JPEG, WebP or GIF)");
    const after = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM media");
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });

  it("stores a real PNG, serves it inline as image/png with nosniff, and a 320 px thumbnail", async () => {
    const bytes = await png(800, 600);
    const stored = await upload("cover.png", "image", bytes);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ contentType: "image/png", width: 800, height: 600 });
    const file = await t.app.inject({ method: "GET", url: stored.body.data.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["content-disposition"]).toBe("inline");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(Buffer.compare(file.rawPayload, bytes)).toBe(0);
    const thumb = await t.app.inject({ method: "GET", url: stored.body.data.thumbnailUrl as string });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/png");
    const small = await Jimp.read(thumb.rawPayload);
    expect([small.width, small.height]).toEqual([320, 240]);
    expect((await t.app.inject({ method: "GET", url: "/media/file/0123456789abcdef0123456789abcdef" })).statusCode).toBe(404);
  });

  it("keeps a JPEG's thumbnail a JPEG, serves a WebP as its own thumbnail, and refuses an oversized picture", async () => {
    const jpeg = Buffer.from(await new Jimp({ width: 640, height: 480, color: 0xcc3333ff }).getBuffer("image/jpeg"));
    const storedJpeg = await upload("photo.jpg", "image", jpeg);
    expect(storedJpeg.body.data).toMatchObject({ contentType: "image/jpeg", width: 640, height: 480 });
    const jpegThumb = await t.app.inject({ method: "GET", url: storedJpeg.body.data.thumbnailUrl as string });
    expect(jpegThumb.headers["content-type"]).toBe("image/jpeg");
    expect((await Jimp.read(jpegThumb.rawPayload)).width).toBe(320);

    // A 1×1 lossless WebP: jimp does not decode WebP, so its size comes from its header and the
    // thumbnail link answers the picture itself.
    const webp = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
    const storedWebp = await upload("tiny.webp", "image", webp);
    expect(storedWebp.body.data).toMatchObject({ contentType: "image/webp", width: 1, height: 1 });
    const webpThumb = await t.app.inject({ method: "GET", url: storedWebp.body.data.thumbnailUrl as string });
    expect(webpThumb.headers["content-type"]).toBe("image/webp");
    expect(webpThumb.rawPayload.length).toBe(webp.length);

    const huge = Buffer.concat([await png(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
    const refused = await upload("huge.png", "image", huge);
    expect(refused.body.data.fields).toEqual([{ field: "fileName", message: "“huge.png” is larger than 5 MB" }]);
    // A header declaring 100,000 × 100,000 pixels is refused before any decoder allocates them.
    const flood = await png(10, 10);
    flood.writeUInt32BE(100_000, 16);
    flood.writeUInt32BE(100_000, 20);
    const pixels = await upload("flood.png", "image", flood);
    expect(pixels.body.data.fields).toEqual([{ field: "fileName", message: "“flood.png” has too many pixels" }]);
  });

  it("serves an attachment for download under its own name, RFC 5987-encoded", async () => {
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const stored = await upload("Manuale d'uso ÄÖ.pdf", "attachment", pdf);
    expect(stored.body.data.contentType).toBe("application/pdf");
    const file = await t.app.inject({ method: "GET", url: stored.body.data.url });
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.headers["content-disposition"]).toBe(
      "attachment; filename=\"Manuale d'uso __.pdf\"; filename*=UTF-8''Manuale%20d%27uso%20%C3%84%C3%96.pdf",
    );
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("news and documents", () => {
  it("sanitises hostile rich text on save, and it reads back clean", async () => {
    const hostile = [
      '<h2>Title</h2><p>Fine <strong>bold</strong> <a href="https://example.com">link</a></p>',
      "<script>alert(1)</script>",
      '<img src="x" onerror="alert(2)">',
      '<img src="https://cdn.example.com/a.png" onerror="alert(3)" style="position:fixed">',
      '<a href="javascript:alert(4)">click</a>',
      '<a href="JaVaScRiPt&#58;alert(5)">click</a>',
      '<p style="background:url(javascript:alert(6))" onclick="alert(7)">styled</p>',
      '<iframe src="https://evil.example"></iframe><svg onload="alert(8)"></svg>',
      '<img src="data:image/png;base64,AAAA">',
    ].join("");
    const saved = await staff<Article>("POST", "/admin/lsydatacenter/save", article({ content: hostile }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = await staff<Article>("GET", `/admin/lsydatacenter/info?id=${saved.body.data.id}`);
    const html = read.body.data.content;
    for (const bad of ["<script", "alert", "onerror", "onclick", "javascript", "style=", "<iframe", "<svg", "data:"])
      expect(html.toLowerCase()).not.toContain(bad);
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">link</a>');
    expect(html).toContain('<img src="https://cdn.example.com/a.png" />');
    expect(html).toContain("<p>styled</p>");

    const onlyScript = await staff<Fields>("POST", "/admin/lsydatacenter/save", article({ content: "<script>x()</script>" }));
    expect(onlyScript.body.data.fields).toEqual([{ field: "content", message: "Content is required" }]);
  });

  it("shows published articles to signed-in users through the app API, never drafts", async () => {
    const cover = await upload("news-cover.png", "image", await png(640, 320));
    const manual = await upload("manual.pdf", "attachment", Buffer.from("%PDF-1.7\n%%EOF\n"));
    const published = await staff<Article>(
      "POST",
      "/admin/lsydatacenter/save",
      article({
        title: "Nuova batteria",
        language: "it",
        coverId: cover.body.data.id,
        content: `<p>Testo</p><img src="${cover.body.data.url}">`,
        attachments: [
          { name: "Manuale", mediaId: manual.body.data.id },
          { name: "Video", url: "https://video.example.com/install" },
        ],
      }),
    );
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const draft = await staff<Article>(
      "POST",
      "/admin/lsydatacenter/save",
      article({ title: "Bozza", language: "it", state: 0 }),
    );
    const webOnly = await staff<Article>(
      "POST",
      "/admin/lsydatacenter/save",
      article({ title: "Solo web", language: "it", terminal: 1 }),
    );

    const list = await user<Page<Article>>("GET", "/app/content/article/page?language=it&type=1");
    expect(list.status).toBe(200);
    expect(list.body.data.records.map((a) => a.title)).toEqual(["Nuova batteria"]);
    expect(list.body.data.records[0]?.cover?.thumbnailUrl).toMatch(/^\/media\/thumb\/[0-9a-f]{32}$/);
    expect(
      (await user<Page<Article>>("GET", "/app/content/article/page?language=en-US")).body.data.records.map((a) => a.title),
    ).not.toContain("Nuova batteria");

    const one = await user<Article>("GET", `/app/content/article/info?id=${published.body.data.id}`);
    expect(one.body.data.content).toBe(`<p>Testo</p><img src="${cover.body.data.url}" />`);
    expect(one.body.data.attachments).toEqual([
      { name: "Manuale", mediaId: manual.body.data.id, url: manual.body.data.url, contentType: "application/pdf", size: 15 },
      { name: "Video", mediaId: null, url: "https://video.example.com/install", contentType: null, size: null },
    ]);
    expect((await user("GET", `/app/content/article/info?id=${draft.body.data.id}`)).status).toBe(404);
    expect((await user("GET", `/app/content/article/info?id=${webOnly.body.data.id}`)).status).toBe(200);

    // Published for a time still to come: out of the app until then.
    const later = await staff<Article>(
      "POST",
      "/admin/lsydatacenter/save",
      article({ title: "Domani", language: "it", publishTime: new Date(Date.now() + 86_400_000).toISOString() }),
    );
    expect(
      (await user<Page<Article>>("GET", "/app/content/article/page?language=it")).body.data.records.map((a) => a.title),
    ).not.toContain("Domani");
    expect((await user("GET", `/app/content/article/info?id=${later.body.data.id}`)).status).toBe(404);

    // Publishing the draft makes it appear; an end user cannot reach the staff routes.
    await staff("POST", "/admin/lsydatacenter/edit", {
      ...article({ title: "Bozza", language: "it" }),
      id: draft.body.data.id,
    });
    expect(
      (await user<Page<Article>>("GET", "/app/content/article/page?language=it")).body.data.records.map((a) => a.title),
    ).toContain("Bozza");
    expect((await user("GET", "/admin/lsydatacenter/page")).status).toBe(403);
    expect(
      (
        await user("POST", "/admin/media/upload?fileName=a.png&kind=image", Buffer.from("x"), {
          headers: { "content-type": "application/octet-stream" },
        })
      ).status,
    ).toBe(403);
  });

  it("refuses a cover that is not one of the tenant's pictures", async () => {
    const manual = await upload("doc.pdf", "attachment", Buffer.from("%PDF-1.7\n%%EOF\n"));
    const refused = await staff<Fields>("POST", "/admin/lsydatacenter/save", article({ coverId: manual.body.data.id }));
    expect(refused.body.data.fields).toEqual([{ field: "coverId", message: "The cover picture was not found" }]);
  });
});

describe("banners and guide pages", () => {
  it("answers the app its published banners of one kind in its language, in their order", async () => {
    const picture = await upload("banner.png", "image", await png(1200, 400));
    const imageId = picture.body.data.id;
    const banner = (over: Record<string, unknown>) => ({ kind: 1, title: "B", language: "es", imageId, state: 1, ...over });
    for (const body of [
      banner({ title: "Segunda", sort: 2, link: "https://example.com/oferta" }),
      banner({ title: "Primera", sort: 1 }),
      banner({ title: "Borrador", state: 0 }),
      banner({ title: "Guía", kind: 2 }),
      banner({ title: "English", language: "en-US" }),
    ]) {
      const saved = await staff("POST", "/admin/banner/save", body);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const list = await user<{ title: string; link: string | null; image: Media }[]>(
      "GET",
      "/app/content/banner/list?kind=1&language=es",
    );
    expect(list.body.data.map((b) => b.title)).toEqual(["Primera", "Segunda"]);
    expect(list.body.data[1]?.link).toBe("https://example.com/oferta");
    expect(list.body.data[0]?.image).toMatchObject({ url: picture.body.data.url, thumbnailUrl: picture.body.data.thumbnailUrl });
    const guides = await user<{ title: string }[]>("GET", "/app/content/banner/list?kind=2&language=es");
    expect(guides.body.data.map((b) => b.title)).toEqual(["Guía"]);

    const pdf = await upload("flyer.pdf", "attachment", Buffer.from("%PDF-1.7\n%%EOF\n"));
    const notPicture = await staff<Fields>("POST", "/admin/banner/save", banner({ imageId: pdf.body.data.id }));
    expect(notPicture.body.data.fields).toEqual([{ field: "imageId", message: "Picture: no such picture was found" }]);
    const badLink = await staff<Fields>("POST", "/admin/banner/save", banner({ link: "javascript:alert(1)" }));
    expect(badLink.body.data.fields.map((f) => f.field)).toEqual(["link"]);
  });
});
