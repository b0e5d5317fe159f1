import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * The app's FAQ a page at a time: the classifications with their counts of shown problems, then one
 * classification's shown problems in sort order, in the reader's language; a classification the
 * reader cannot read (none, unknown, another tenant's) is refused by name, never a server error.
 */
let t: TestApp;
let admin: string;
let reader: string;
const asAdmin = apiCaller(
  () => t.app,
  () => admin,
);
const asReader = apiCaller(
  () => t.app,
  () => reader,
);

type Page<T> = { records: T[]; total: number; size: number; pages: number; current: number };
type AppClass = { id: number; name: string; description: string; summary: string; problemCount: number };
type AppProblem = { id: number; classificationId: number; title: string; content: string };
type Refusal = { fields: { field: string; message: string }[] };

const texts = (zh: string, en: string, extra: Record<string, string> = {}) => ({ "zh-CN": zh, "en-US": en, ...extra });
const classes = async (query = "", language = "en-US") =>
  (await asReader<Page<AppClass>>("GET", `/app/faq${query}`, undefined, { language })).body.data;
const problems = async (query: string, language = "en-US") => {
  const answer = await asReader<Page<AppProblem>>("GET", `/app/faq/problems?${query}`, undefined, { language });
  expect(answer.status).toBe(200);
  return answer.body.data;
};
const saveClass = async (en: string, sort: number) =>
  (await asAdmin<{ id: number }>("POST", "/admin/faq/classification/save", { name: texts(`${en}（中）`, en), summary: en, sort }))
    .body.data.id;
const saveProblem = async (classificationId: number, en: string, sort: number, state = 1, extra: Record<string, string> = {}) =>
  (
    await asAdmin<{ id: number }>("POST", "/admin/faq/problem/save", {
      classificationId,
      title: texts(`${en}（中）`, en, extra),
      content: texts("答", `Answer to ${en}`),
      sort,
      state,
    })
  ).body.data.id;

let battery: number;
let inverter: number;
/** Problem ids by English title. */
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  await createAccount(t.db, { username: "faq-reader", password: "Reader2025x", userType: 2, roles: ["END_USER"] });
  reader = await signIn(t.app, "faq-reader", "Reader2025x");
  inverter = await saveClass("Inverter", 2);
  battery = await saveClass("Battery", 1);
  // Sorts out of id order, two sharing a sort (the id breaks the tie), and hidden ones between them.
  for (const [title, sort, state] of [
    ["B3", 3, 1],
    ["B1a", 1, 1],
    ["Hidden 1", 0, 0],
    ["B2", 2, 1],
    ["B1b", 1, 1],
    ["B5", 5, 1],
    ["Hidden 2", 4, 0],
  ] as const)
    ids[title] = await saveProblem(battery, title, sort, state, title === "B2" ? { ja: "B2（日本語）" } : {});
  ids.I1 = await saveProblem(inverter, "I1", 1);
}, 60_000);
afterAll(() => t.close());

describe("app FAQ classifications", () => {
  it("lists the classifications by sort order, a page at a time, with their counts of shown problems", async () => {
    const all = await classes();
    expect(all.records.map((c) => [c.name, c.problemCount])).toEqual([
      ["Battery", 5],
      ["Inverter", 1],
    ]);
    expect(all).toMatchObject({ total: 2, current: 1, size: 10, pages: 1 });
    expect(all.records[0]).toEqual({ id: battery, name: "Battery", description: "", summary: "Battery", problemCount: 5 });
    const second = await classes("?size=1&current=2", "zh-CN");
    expect(second).toMatchObject({ total: 2, pages: 2, current: 2 });
    expect(second.records.map((c) => c.name)).toEqual(["Inverter（中）"]);
  });

  it("keeps the counts as problems are hidden, shown again, moved and deleted, for the app and the console", async () => {
    // The app counts shown problems; the console's classification list counts every problem.
    const counts = async () => {
      const console_ = await asAdmin<Page<{ problemCount: number }>>("GET", "/admin/faq/classification/page");
      return [...(await classes()).records.map((c) => c.problemCount), ...console_.body.data.records.map((c) => c.problemCount)];
    };
    expect(await counts()).toEqual([5, 1, 7, 1]);
    const edit = (id: number, classificationId: number, state: number) =>
      asAdmin("POST", "/admin/faq/problem/edit", {
        id,
        classificationId,
        title: texts("改", "Edited"),
        content: texts("改", "Edited"),
        sort: 9,
        state,
      });
    const extra = await saveProblem(battery, "Extra", 9);
    expect(await counts()).toEqual([6, 1, 8, 1]);
    expect((await edit(extra, battery, 0)).status).toBe(200);
    expect(await counts()).toEqual([5, 1, 8, 1]);
    expect((await edit(extra, inverter, 1)).status).toBe(200);
    expect(await counts()).toEqual([5, 2, 7, 2]);
    expect((await asAdmin("POST", "/admin/faq/problem/del", { id: extra })).status).toBe(200);
    expect(await counts()).toEqual([5, 1, 7, 1]);
  });
});

describe("app FAQ problems of a classification", () => {
  it("pages the shown problems by sort, then id, and leaves hidden ones out", async () => {
    const first = await problems(`classificationId=${battery}&size=2`);
    expect(first).toMatchObject({ total: 5, size: 2, pages: 3, current: 1 });
    const pages = [first, await problems(`classificationId=${battery}&size=2&current=2`)];
    pages.push(await problems(`classificationId=${battery}&size=2&current=3`));
    expect(pages.map((p) => p.records.map((r) => r.title))).toEqual([["B1a", "B1b"], ["B2", "B3"], ["B5"]]);
    expect(pages.flatMap((p) => p.records.map((r) => r.id))).not.toContain(ids["Hidden 1"]);
    expect(first.records[0]).toEqual({
      id: ids.B1a,
      classificationId: battery,
      title: "B1a",
      content: "Answer to B1a",
    });
    expect((await problems(`classificationId=${battery}&size=2&current=4`)).records).toEqual([]);
  });

  it("answers in the reader's language, falling back to English where that language was left empty", async () => {
    const ja = await problems(`classificationId=${battery}&size=5`, "ja");
    expect(ja.records.map((r) => r.title)).toEqual(["B1a", "B1b", "B2（日本語）", "B3", "B5"]);
    expect(ja.records[0]?.content).toBe("Answer to B1a");
    const zh = await problems(`classificationId=${battery}&size=1`, "zh-CN");
    expect(zh.records[0]).toMatchObject({ title: "B1a（中）", content: "答" });
  });

  it("refuses a missing, malformed or unknown classification by name, in the reader's language", async () => {
    const refused = async (query: string, language = "en-US") => {
      const answer = await asReader<Refusal>("GET", `/app/faq/problems${query}`, undefined, { language });
      expect(answer.status, query).toBe(400);
      expect(answer.body.data.fields.map((f) => f.field)).toEqual(["classificationId"]);
      return answer.body.data.fields[0]?.message;
    };
    expect(await refused("")).toBe("Classification is required");
    expect(await refused("?classificationId=")).toBe("Classification is required");
    expect(await refused("?classificationId=abc")).toContain("Classification");
    expect(await refused("?classificationId=99999999999999999999")).toContain("Classification");
    expect(await refused("?classificationId=987654321")).toBe("The classification does not exist");
    expect(await refused("?classificationId=987654321", "zh-CN")).toBe("问题分类不存在");
  });

  it("does not read another tenant's classification or its problems", async () => {
    await t.db.query("INSERT INTO tenant (id, name) VALUES (2, 'Other tenant') ON CONFLICT DO NOTHING");
    const other = await t.db.query<{ id: number }>(
      `INSERT INTO faq_classification (tenant_id, name, summary, sort) VALUES (2, $1, 'Other', 0) RETURNING id`,
      [JSON.stringify(texts("别家", "Elsewhere"))],
    );
    const otherId = other.rows[0]?.id as number;
    await t.db.query(`INSERT INTO faq_problem (tenant_id, classification_id, title, content) VALUES (2, $1, $2, $2)`, [
      otherId,
      JSON.stringify(texts("别家的问题", "Another tenant's problem")),
    ]);
    const answer = await asReader<Refusal>("GET", `/app/faq/problems?classificationId=${otherId}`);
    expect(answer.status).toBe(400);
    expect(answer.body.data.fields).toEqual([{ field: "classificationId", message: "The classification does not exist" }]);
    expect((await classes()).records.map((c) => c.name)).toEqual(["Battery", "Inverter"]);
  });
});
