import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let admin: string;
let endUser: string;
const asAdmin = apiCaller(
  () => t.app,
  () => admin,
);
const asUser = apiCaller(
  () => t.app,
  () => endUser,
);

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  await createAccount(t.db, { username: "reader", password: "Reader2025x", userType: 2, roles: ["END_USER"] });
  endUser = await signIn(t.app, "reader", "Reader2025x");
});
afterAll(() => t.close());

const texts = (zh: string, en: string, extra: Record<string, string> = {}) => ({ "zh-CN": zh, "en-US": en, ...extra });

describe("FAQ", () => {
  let classId: number;
  let problemId: number;

  it("keeps classifications and problems in several languages and finds them by text in any of them", async () => {
    const cls = await asAdmin<{ id: number; name: Record<string, string> }>("POST", "/admin/faq/classification/save", {
      name: texts("电池", "Battery", { it: "Batteria" }),
      summary: "Battery questions",
      sort: 1,
    });
    expect(cls.status).toBe(200);
    expect(cls.body.data.name).toEqual({ "zh-CN": "电池", "en-US": "Battery", it: "Batteria", es: "", ja: "" });
    classId = cls.body.data.id;
    const problem = await asAdmin<{ id: number }>("POST", "/admin/faq/problem/save", {
      classificationId: classId,
      title: texts("电池不充电怎么办？", "The battery does not charge", { ja: "電池が充電されない" }),
      content: texts("请检查充电开关。", "Check the charge switch."),
    });
    expect(problem.status).toBe(200);
    problemId = problem.body.data.id;
    await asAdmin("POST", "/admin/faq/problem/save", {
      classificationId: classId,
      title: texts("隐藏的问题", "A hidden problem"),
      content: texts("隐藏", "Hidden"),
      state: 0,
    });

    for (const keyword of ["不充电", "does not CHARGE", "電池が"]) {
      const page = await asAdmin<{ records: { id: number }[] }>(
        "GET",
        `/admin/faq/problem/page?keyword=${encodeURIComponent(keyword)}`,
      );
      expect(
        page.body.data.records.map((r) => r.id),
        keyword,
      ).toEqual([problemId]);
    }
    const byName = await asAdmin<{ records: { id: number }[] }>(
      "GET",
      `/admin/faq/classification/page?keyword=${encodeURIComponent("电池")}`,
    );
    expect(byName.body.data.records.map((r) => r.id)).toEqual([classId]);
  });

  it("refuses a classification without its Chinese or English name, naming the field", async () => {
    const answer = await asAdmin<{ fields: { field: string; message: string }[] }>("POST", "/admin/faq/classification/save", {
      name: texts("", "Inverter"),
      summary: "x",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.data.fields).toEqual([{ field: "name.zh-CN", message: expect.stringContaining("Name (Chinese)") }]);
  });

  it("edits a problem's texts in two languages", async () => {
    const edited = await asAdmin<{ title: Record<string, string> }>("POST", "/admin/faq/problem/edit", {
      id: problemId,
      classificationId: classId,
      title: texts("电池无法充电", "Battery will not charge", { es: "La batería no carga" }),
      content: texts("请检查充电开关和 SOC 上限。", "Check the charge switch and the SOC limit."),
      sort: 2,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.title).toMatchObject({
      "zh-CN": "电池无法充电",
      "en-US": "Battery will not charge",
      es: "La batería no carga",
    });
  });

  it("refuses to delete a classification that still has problems, in the caller's language", async () => {
    const en = await asAdmin("POST", "/admin/faq/classification/del", { id: classId });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe("This classification still has 2 problem(s) and cannot be deleted; delete or move them first");
    const zh = await asAdmin("POST", "/admin/faq/classification/del", { id: classId }, { language: "zh-CN" });
    expect(zh.body.msg).toBe("该分类下还有 2 个问题，不能删除；请先删除或移走这些问题");
    const still = await t.db.query("SELECT 1 FROM faq_classification WHERE id = $1", [classId]);
    expect(still.rows).toHaveLength(1);
  });

  it("answers the app the shown problems in the caller's language, falling back to English", async () => {
    type ClassPage = { records: { id: number; name: string; problemCount: number }[]; total: number };
    type ProblemPage = { records: { title: string; content: string }[]; total: number };
    const classes = await asUser<ClassPage>("GET", "/app/faq", undefined, { language: "ja" });
    expect(classes.status).toBe(200);
    expect(classes.body.data.records).toEqual([expect.objectContaining({ id: classId, name: "Battery", problemCount: 1 })]);
    const ja = await asUser<ProblemPage>("GET", `/app/faq/problems?classificationId=${classId}`, undefined, {
      language: "ja",
    });
    expect(ja.status).toBe(200);
    expect(ja.body.data.records).toEqual([
      expect.objectContaining({ title: "Battery will not charge", content: "Check the charge switch and the SOC limit." }),
    ]);
    expect(ja.body.data.total).toBe(1);
    const es = await asUser<ProblemPage>("GET", `/app/faq/problems?classificationId=${classId}`, undefined, {
      language: "es-ES",
    });
    expect(es.body.data.records[0]?.title).toBe("La batería no carga");
    const it = await asUser<ClassPage>("GET", "/app/faq", undefined, { language: "it" });
    expect(it.body.data.records[0]?.name).toBe("Batteria");
    const search = await asUser<{ title: string }[]>(
      "GET",
      `/app/faq/search?keyword=${encodeURIComponent("无法充电")}`,
      undefined,
      {
        language: "zh-CN",
      },
    );
    expect(search.body.data.map((p) => p.title)).toEqual(["电池无法充电"]);
    const hidden = await asUser<unknown[]>("GET", `/app/faq/search?keyword=hidden`);
    expect(hidden.body.data).toEqual([]);
  });

  it("deletes the classification once its problems are gone", async () => {
    const page = await asAdmin<{ records: { id: number }[] }>("GET", `/admin/faq/problem/page?classificationId=${classId}`);
    for (const p of page.body.data.records)
      expect((await asAdmin("POST", "/admin/faq/problem/del", { id: p.id })).status).toBe(200);
    expect((await asAdmin("POST", "/admin/faq/classification/del", { id: classId })).status).toBe(200);
  });
});

describe("regions", () => {
  const regionByCode = async (code: string) =>
    (await t.db.query<{ id: number }>("SELECT id FROM region WHERE code = $1", [code])).rows[0]?.id as number;

  it("seeds countries with their regions, and the app reads the tree a level at a time in its language", async () => {
    const countries = await asUser<{ code: string; name: string; hasChildren: boolean }[]>(
      "GET",
      "/app/region/children",
      undefined,
      {
        language: "it",
      },
    );
    expect(countries.body.data.map((c) => c.code)).toEqual(["AU", "CN", "IT", "ES", "JP"]);
    expect(countries.body.data[2]).toMatchObject({ name: "Italia", hasChildren: true });
    const states = await asUser<{ code: string; name: string; grade: number }[]>(
      "GET",
      `/app/region/children?parentId=${await regionByCode("AU")}`,
    );
    expect(states.body.data).toContainEqual(expect.objectContaining({ code: "AU-NSW", name: "New South Wales", grade: 1 }));
  });

  it("puts a child one grade below its parent and refuses anything else, translated", async () => {
    const au = await regionByCode("AU");
    const wrong = await asAdmin<{ fields: { field: string; message: string }[] }>("POST", "/admin/region/save", {
      parentId: au,
      grade: 2,
      code: "AU-X",
      name: texts("某地", "Somewhere"),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.fields).toEqual([{ field: "grade", message: "The address grade must be one below its parent’s" }]);
    const orphan = await asAdmin<{ fields: { field: string; message: string }[] }>(
      "POST",
      "/admin/region/save",
      { parentId: null, grade: 1, code: "XX", name: texts("某地", "Somewhere") },
      { language: "zh-CN" },
    );
    expect(orphan.body.data.fields).toEqual([{ field: "grade", message: "没有上级的地区必须是国家" }]);
    const ok = await asAdmin<{ id: number; grade: number; parentId: number }>("POST", "/admin/region/save", {
      parentId: await regionByCode("AU-WA"),
      grade: 2,
      code: "AU-WA-PER",
      name: texts("珀斯", "Perth"),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.grade).toBe(2);
    const underResidence = await asAdmin("POST", "/admin/region/save", {
      parentId: ok.body.data.id,
      grade: 2,
      code: "AU-WA-PER-1",
      name: texts("某地", "Somewhere"),
    });
    expect(underResidence.status).toBe(400);
  });

  it("refuses to delete a region that has children", async () => {
    const answer = await asAdmin("POST", "/admin/region/del", { id: await regionByCode("AU-WA") });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe("This region still has 1 sub-region(s) and cannot be deleted");
    expect((await asAdmin("POST", "/admin/region/del", { id: await regionByCode("AU-WA-PER") })).status).toBe(200);
    expect((await asAdmin("POST", "/admin/region/del", { id: await regionByCode("AU-WA") })).status).toBe(200);
  });
});

describe("the latest app version", () => {
  const version = (versionCode: string, extra: Record<string, unknown>) =>
    asAdmin<{ id: number }>("POST", "/admin/app/version/save", {
      type: 0,
      versionCode,
      versionName: `Android ${versionCode}`,
      state: 1,
      downloadUrl: `https://example.com/app-${versionCode}.apk`,
      ...extra,
    });
  type Latest = {
    latest: { versionCode: string; notes: string; storeUrl: string | null; downloadUrl: string | null } | null;
    updateAvailable: boolean;
    forced: boolean;
  };
  const latest = (query: string, language = "en-US") =>
    asUser<Latest>("GET", `/app/version/latest?${query}`, undefined, { language });

  it("answers none before a version is distributed", async () => {
    expect((await latest("appType=0&versionCode=1.0")).body.data).toEqual({
      latest: null,
      updateAvailable: false,
      forced: false,
    });
  });

  it("answers the newest distributed version, forced below the minimum supported one, with notes in the caller's language", async () => {
    expect((await version("1.9", { notes: { "en-US": "Old" } })).status).toBe(200);
    const saved = await version("1.10", {
      notes: {
        "zh-CN": "修复了电池显示",
        "en-US": "Fixed the battery display",
        it: "Corretta la visualizzazione della batteria",
      },
      storeUrl: "https://play.google.com/store/apps/details?id=com.example.ess",
      minSupportedVersion: "1.5",
    });
    expect(saved.status).toBe(200);
    await version("2.0", { state: 0 }); // to be issued: not answered

    const current = await latest("appType=0&versionCode=1.10");
    expect(current.body.data).toMatchObject({ latest: { versionCode: "1.10" }, updateAvailable: false, forced: false });
    const older = await latest("appType=0&versionCode=1.6", "zh-CN");
    expect(older.body.data).toMatchObject({
      latest: { notes: "修复了电池显示", storeUrl: "https://play.google.com/store/apps/details?id=com.example.ess" },
      updateAvailable: true,
      forced: false,
    });
    expect((await latest("appType=0&versionCode=1.6", "it")).body.data.latest?.notes).toBe(
      "Corretta la visualizzazione della batteria",
    );
    expect((await latest("appType=0&versionCode=1.6", "ja")).body.data.latest?.notes).toBe("Fixed the battery display");
    expect((await latest("appType=0&versionCode=1.4")).body.data).toMatchObject({ updateAvailable: true, forced: true });
    // iOS has none.
    expect((await latest("appType=1&versionCode=1.0")).body.data.latest).toBeNull();
  });

  it("keeps an iOS version with only its store link, and edits its app fields on the version record", async () => {
    const saved = await asAdmin<{ id: number; storeUrl: string; forceUpdate: boolean }>("POST", "/admin/app/version/save", {
      type: 1,
      versionCode: "3.0",
      versionName: "iOS 3.0",
      state: 1,
      storeUrl: "https://apps.apple.com/app/id000000000",
      notes: { "zh-CN": "新版本", "en-US": "New version" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ storeUrl: "https://apps.apple.com/app/id000000000", forceUpdate: false });
    const edited = await asAdmin<{ forceUpdate: boolean; minSupportedVersion: string }>("POST", "/admin/app/version/edit", {
      id: saved.body.data.id,
      type: 1,
      versionCode: "3.0",
      versionName: "iOS 3.0",
      state: 1,
      storeUrl: "https://apps.apple.com/app/id000000000",
      forceUpdate: false,
      minSupportedVersion: "2.5",
      notes: { "zh-CN": "新版本", "en-US": "New version" },
    });
    expect(edited.body.data).toMatchObject({ forceUpdate: false, minSupportedVersion: "2.5" });
    expect((await latest("appType=1&versionCode=2.4")).body.data).toMatchObject({
      latest: { versionCode: "3.0", storeUrl: "https://apps.apple.com/app/id000000000", downloadUrl: null },
      forced: true,
    });
    expect((await latest("appType=1&versionCode=2.5")).body.data).toMatchObject({ updateAvailable: true, forced: false });
    // A link of some kind is required.
    const none = await asAdmin<{ fields: { field: string }[] }>("POST", "/admin/app/version/save", {
      type: 1,
      versionCode: "3.1",
      versionName: "iOS 3.1",
    });
    expect(none.body.data.fields.map((f) => f.field)).toEqual(["downloadUrl"]);
  });

  it("forces every older version when the newest is marked forced", async () => {
    await version("1.11", { forceUpdate: true, notes: { "en-US": "Security fix" } });
    expect((await latest("appType=0&versionCode=1.10")).body.data).toMatchObject({
      latest: { versionCode: "1.11", notes: "Security fix" },
      forced: true,
    });
  });
});

describe("phone numbers", () => {
  it("stores the E.164 form of a national or international number, and refuses an impossible one", async () => {
    const roleId = (await t.db.query<{ id: number }>("SELECT id FROM sys_role WHERE code = 'AGENT'")).rows[0]?.id;
    const save = (username: string, phone: string) =>
      asAdmin<{ id: number; phone: string | null }>("POST", "/sys/user/save", {
        username,
        password: "Start2025x",
        name: username,
        phone,
        userType: 0,
        roleIds: [roleId],
      });
    const national = await save("cn-phone", "138 0013 8000");
    expect(national.status).toBe(200);
    expect(national.body.data.phone).toBe("+8613800138000");
    const italian = await save("it-phone", "+39 312 345 6789");
    expect(italian.body.data.phone).toBe("+393123456789");
    const stored = await t.db.query("SELECT phone FROM sys_user WHERE username IN ('cn-phone', 'it-phone') ORDER BY username");
    expect(stored.rows).toEqual([{ phone: "+8613800138000" }, { phone: "+393123456789" }]);
    const bad = await save("bad-phone", "12345678901");
    expect(bad.status).toBe(400);
  });
});
