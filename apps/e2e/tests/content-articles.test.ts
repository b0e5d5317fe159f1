import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Raster } from "@ess/server/internal/modules/captcha/raster.ts";
import { tempDataDir } from "@ess/server/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

type Summary = { id: number; title: string; cover: { url: string; thumbnailUrl: string } | null };

/**
 * Issue 18, done-when 2 (news): staff publish news with a cover, rich text and attachments in two languages
 * through the data-center screen, and an end user's app reads it through the app API.
 */
describe.skipIf(!CHROMIUM)("news, documents and banners published by staff and read by the app", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  const files = tempDataDir("ess-e2e-content-files-");
  const cover = join(files, "cover.png");
  const fake = join(files, "fake.png");
  const manual = join(files, "Manuale d'uso.pdf");
  let endUserToken = "";
  /** A browser test may be retried: each attempt's titles are its own. */
  let attempt = 0;

  /** Calls the app API as the signed-in end user. */
  const app = async <T>(url: string): Promise<T> => {
    const r = await console_.runtime.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${endUserToken}` } });
    return (r.json() as { data: T }).data;
  };

  beforeAll(async () => {
    const picture = new Raster(900, 500);
    for (let y = 0; y < 500; y++) for (let x = 0; x < 900; x++) picture.set(x, y, [47, 143, 91 + (x % 100), 255]);
    writeFileSync(cover, picture.toPng());
    writeFileSync(fake, "this is text, not a picture");
    writeFileSync(manual, "%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    console_ = await startShellConsole({ DATA_DIR: tempDataDir("ess-e2e-content-") });
    await console_.asAdmin("POST", "/admin/lsyuser/save", { username: "reader", password: "Reader2025x", name: "Reader" });
    endUserToken = await console_.tokenFor("reader", "Reader2025x");
    // An account made by staff changes its password at its first sign-in, as the app has it do.
    await console_.runtime.app.inject({
      method: "POST",
      url: "/sys/user/password/edit",
      headers: { authorization: `Bearer ${endUserToken}` },
      payload: { oldPassword: "Reader2025x", newPassword: "Reader2026y", confirmPassword: "Reader2026y" },
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  const publish = async (
    page: Page,
    labels: { type: string; language: string; state: string },
    title: string,
    words: string,
    withAttachments = false,
  ) => {
    const articles = crudScreen(page, "articles");
    await articles.open(console_.url, "/content/article/index");
    await articles.create();
    await articles.fill({ title, sketch: `${title} in short` });
    await articles.choose("type", labels.type);
    await articles.choose("language", labels.language);
    await articles.choose("state", labels.state);
    await page.getByTestId("articles-create-dialog-coverId-file").setInputFiles(cover);
    await page.getByTestId("articles-create-dialog-coverId-thumbnail").waitFor();
    const editor = page.getByTestId("articles-create-dialog-content-content").locator(".ProseMirror");
    await editor.click();
    await page.getByTestId("articles-create-dialog-content-bold").click();
    await page.keyboard.type(words);
    await page.getByTestId("articles-create-dialog-content-bold").click();
    await page.keyboard.type(" and more.");
    if (withAttachments) {
      await page.getByTestId("articles-create-dialog-attachments-file").setInputFiles(manual);
      await page.getByTestId("articles-create-dialog-attachments-item-0").waitFor();
      await page.getByTestId("articles-create-dialog-attachments-add-link").click();
      await page.getByTestId("articles-create-dialog-attachments-name-1").fill("Video di installazione");
      await page.getByTestId("articles-create-dialog-attachments-url-1").fill("https://video.example.com/install");
    }
    await screenshot(page, `content-article-form-${title.replace(/\W+/g, "-")}`);
    await articles.save();
    await articles.dialogGone();
    await expect.poll(() => articles.row(title).count()).toBe(1);
    return articles;
  };

  it("refuses a text file as a cover with the file named, in the user's language", async () => {
    for (const [locale, message] of [
      ["en-US", "“fake.png” is not a picture (PNG, JPEG, WebP or GIF)"],
      ["it", "“fake.png” non è un'immagine (PNG, JPEG, WebP o GIF)"],
    ] as const) {
      const page = await (await browser.newContext({ locale, viewport: { width: 1440, height: 1000 } })).newPage();
      await signIn(page, console_.url);
      const articles = crudScreen(page, "articles");
      await articles.open(console_.url, "/content/article/index");
      await articles.create();
      await page.getByTestId("articles-create-dialog-coverId-file").setInputFiles(fake);
      await expect.poll(() => page.getByTestId("articles-create-dialog-coverId-error").textContent()).toBe(message);
      await page.context().close();
    }
    expect((await console_.runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM media")).rows[0]?.n).toBe(0);
  });

  it("publishes news in English and Italian, and the app reads each in its language with cover and rich text", async () => {
    const n = ++attempt;
    const en = await (await browser.newContext({ locale: "en-US", viewport: { width: 1440, height: 1000 } })).newPage();
    await signIn(en, console_.url);
    await publish(en, { type: "News", language: "English", state: "Published" }, `Spring check-up ${n}`, "Clean the panels");
    await screenshot(en, "content-articles-en-US");
    // Editing reads the whole article first: its rich text is in the editor, its cover shown.
    const list = crudScreen(en, "articles");
    await list.rowAction(`Spring check-up ${n}`, "edit");
    await en.getByTestId("articles-edit-dialog-coverId-thumbnail").waitFor();
    await expect
      .poll(() => en.getByTestId("articles-edit-dialog-content-content").locator(".ProseMirror strong").textContent())
      .toBe("Clean the panels");
    await list.fill({ sketch: "Edited in short" });
    await list.save();
    await list.dialogGone();

    const it_ = await (await browser.newContext({ locale: "it", viewport: { width: 1440, height: 1000 } })).newPage();
    await signIn(it_, console_.url);
    const articles = await publish(
      it_,
      { type: "Notizie", language: "Italiano", state: "Pubblicato" },
      `Controllo di primavera ${n}`,
      "Pulire i pannelli",
      true,
    );
    expect(await articles.row(`Controllo di primavera ${n}`).textContent()).toContain("Notizie");
    // A draft stays out of the app.
    await publish(it_, { type: "Manuale utente", language: "Italiano", state: "Bozza" }, `Manuale in bozza ${n}`, "Non ancora");

    const italian = await app<{ records: Summary[] }>("/app/content/article/page?language=it");
    expect(italian.records.map((a) => a.title)).toContain(`Controllo di primavera ${n}`);
    expect(italian.records.map((a) => a.title)).not.toContain(`Manuale in bozza ${n}`);
    expect(italian.records.map((a) => a.title)).not.toContain(`Spring check-up ${n}`);
    const english = await app<{ records: Summary[] }>("/app/content/article/page?language=en-US&type=1");
    expect(english.records.map((a) => a.title)).toContain(`Spring check-up ${n}`);
    const published = italian.records.find((a) => a.title === `Controllo di primavera ${n}`);

    const article = await app<{
      content: string;
      cover: Summary["cover"];
      attachments: { name: string; url: string; contentType: string | null }[];
    }>(`/app/content/article/info?id=${published?.id}`);
    expect(article.content).toBe("<p><strong>Pulire i pannelli</strong> and more.</p>");
    const thumb = await fetch(new URL(article.cover?.thumbnailUrl ?? "", console_.url));
    if (!thumb.ok)
      throw new Error(`${thumb.status} ${new URL(article.cover?.thumbnailUrl ?? "", console_.url)} ${await thumb.text()}`);
    expect(thumb.headers.get("content-type")).toBe("image/png");
    // The PNG header's width (bytes 16–19).
    expect(Buffer.from(await thumb.arrayBuffer()).readUInt32BE(16)).toBe(320);
    expect(article.attachments.map((a) => [a.name, a.contentType])).toEqual([
      ["Manuale d'uso", "application/pdf"],
      ["Video di installazione", null],
    ]);
    const download = await fetch(new URL(article.attachments[0]?.url ?? "", console_.url));
    expect(download.headers.get("content-disposition")).toContain("filename*=UTF-8''Manuale%20d%27uso.pdf");
    await en.context().close();
    await it_.context().close();
  });

  it("publishes a banner with its picture, which the app lists for its language", async () => {
    const page = await (await browser.newContext({ locale: "es", viewport: { width: 1440, height: 1000 } })).newPage();
    await signIn(page, console_.url);
    const banners = crudScreen(page, "banners");
    await banners.open(console_.url, "/content/banner/index");
    await banners.create();
    await banners.fill({ title: "Oferta de verano", link: "https://example.com/verano" });
    await banners.choose("language", "Español");
    await banners.choose("state", "Publicado");
    await page.getByTestId("banners-create-dialog-imageId-file").setInputFiles(cover);
    await page.getByTestId("banners-create-dialog-imageId-thumbnail").waitFor();
    await banners.save();
    await banners.dialogGone();
    await expect.poll(() => banners.row("Oferta de verano").textContent()).toContain("Banner");
    const listed = await app<{ title: string; link: string }[]>("/app/content/banner/list?kind=1&language=es");
    expect(listed.map((b) => [b.title, b.link])).toContainEqual(["Oferta de verano", "https://example.com/verano"]);
    await page.context().close();
  });
});
