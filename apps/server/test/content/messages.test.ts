import { reminderDestination } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMessagePublisher } from "../../src/modules/messages/message-publisher.ts";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Messages: a dealer writes a message to its own subtree and schedules it; the server publishes it
 * once its time has come (the job's tick, driven with a clock an hour ahead), its end users find
 * it in their inbox through the app API, nobody of another branch does, a recall takes it away.
 */
let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
}, 120_000);
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: the answers of several routes, checked against their contracts by the app
type Data = any;

async function call(method: "GET" | "POST", url: string, who: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { ...bearer(await world.token(who)), "accept-language": "en-US" },
  });
  return { status: response.statusCode, body: response.json() as { code: number; msg: string; data: Data } };
}

const inboxTitles = async (who: string) => {
  const { status, body } = await call("GET", "/app/message/inbox?size=50", who);
  expect(status, `${who}: ${JSON.stringify(body)}`).toBe(200);
  return { titles: (body.data.records as { title: string }[]).map((r) => r.title), unread: body.data.unread as number };
};

const message = (title: string, extra: object) => ({
  title,
  summary: `${title} in brief`,
  content: `<p>${title}</p>`,
  terminal: "app",
  audience: "everyone",
  ...extra,
});

describe("messages", () => {
  it("publishes a scheduled message of a dealer to its own subtree's end users, and only to them, at its time", async () => {
    const d1a = world.orgs.get("D1a")?.id as number;
    const saved = await call(
      "POST",
      "/admin/message/save",
      "acc-D1a",
      message("Firmware night", { audience: "organisation", orgId: d1a }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.state).toBe(0);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await call("POST", "/admin/message/publish", "acc-D1a", { id: saved.body.data.id, publishAt: at });
    expect(scheduled.body.data.state).toBe(1);
    expect(scheduled.body.data.publishAt).toBe(at);

    // Before its time: nobody has it, and a tick of the job now publishes nothing.
    const publisher = createMessagePublisher({ db: t.db, hub: t.app.realtime });
    expect(await publisher.tick(new Date())).toBe(0);
    expect((await inboxTitles("u1a")).titles).not.toContain("Firmware night");

    // Two processes ticking after the time publish it once between them.
    const later = new Date(Date.now() + 3_700_000);
    const other = createMessagePublisher({ db: t.db, hub: t.app.realtime });
    const [a, b] = await Promise.all([publisher.tick(later), other.tick(later)]);
    expect(a + b).toBe(1);
    expect(await publisher.tick(later)).toBe(0);

    const info = await call("GET", `/admin/message/info?id=${saved.body.data.id}`, "acc-D1a");
    expect(info.body.data.state).toBe(2);
    expect(info.body.data.recipients).toBe(2);

    for (const who of ["u1a", "u1a-sub"]) {
      const inbox = await inboxTitles(who);
      expect(inbox.titles, who).toContain("Firmware night");
      expect(inbox.unread, who).toBe(1);
    }
    for (const who of ["u1b", "u2a", "u2a-sub", "u1shown"])
      expect((await inboxTitles(who)).titles, who).not.toContain("Firmware night");

    // Read: the unread count goes down.
    const read = await call("POST", "/app/message/read", "u1a", { id: saved.body.data.id });
    expect(read.body.data.unread).toBe(0);
    expect((await inboxTitles("u1a")).unread).toBe(0);

    // Recalled: gone from every inbox.
    const recalled = await call("POST", "/admin/message/recall", "acc-D1a", { id: saved.body.data.id });
    expect(recalled.body.data.state).toBe(3);
    for (const who of ["u1a", "u1a-sub"]) expect((await inboxTitles(who)).titles, who).not.toContain("Firmware night");
  });

  it("refuses an audience outside the sender's scope as not found", async () => {
    const other = world.orgs.get("D1b")?.id as number;
    const foreignOrg = await call(
      "POST",
      "/admin/message/save",
      "acc-D1a",
      message("Intrusion", { audience: "organisation", orgId: other }),
    );
    expect(foreignOrg.status).toBe(404);
    const foreignUser = await call(
      "POST",
      "/admin/message/save",
      "acc-D1a",
      message("Intrusion", { audience: "users", userIds: [world.users.get("u2a")?.id] }),
    );
    expect(foreignUser.status).toBe(404);
    // The distributor above it sees nothing of D2's messages either.
    const mine = await call("POST", "/admin/message/save", "acc-D2a", message("D2a only", {}));
    const peek = await call("GET", `/admin/message/info?id=${mine.body.data.id}`, "acc-D1");
    expect(peek.status).toBe(404);
    const list = await call("GET", "/admin/message/page?size=100", "acc-D1");
    expect((list.body.data.records as { title: string }[]).map((r) => r.title)).not.toContain("D2a only");
  });

  it("publishes at once to everyone the sender serves, reminds its console users live, and keeps web messages out of the app", async () => {
    const installer = world.users.get("acc-I1a")?.id as number;
    const reminders: unknown[] = [];
    const stop = t.app.realtime.subscribe(reminderDestination(1, installer), (_, body) => reminders.push(JSON.parse(body)));
    const saved = await call("POST", "/admin/message/save", "acc-D1a", message("Both ways", { terminal: "both" }));
    const published = await call("POST", "/admin/message/publish", "acc-D1a", { id: saved.body.data.id });
    expect(published.body.data.state).toBe(2);
    stop();
    expect(reminders).toEqual([
      expect.objectContaining({ title: "Both ways", content: "Both ways in brief", messageId: saved.body.data.id }),
    ]);
    const console = await call("GET", "/admin/message/inbox", "acc-I1a");
    expect((console.body.data.records as { title: string }[]).map((r) => r.title)).toContain("Both ways");
    expect(console.body.data.unread).toBeGreaterThanOrEqual(1);
    expect((await inboxTitles("u1a")).titles).toContain("Both ways");
    expect((await inboxTitles("u1b")).titles).not.toContain("Both ways");

    const web = await call("POST", "/admin/message/save", "acc-D1a", message("Staff only", { terminal: "web" }));
    await call("POST", "/admin/message/publish", "acc-D1a", { id: web.body.data.id });
    expect((await inboxTitles("u1a")).titles).not.toContain("Staff only");
    const staff = await call("GET", "/admin/message/inbox", "acc-I1a");
    expect((staff.body.data.records as { title: string }[]).map((r) => r.title)).toContain("Staff only");

    // A published message can no longer be edited.
    const edit = await call("POST", "/admin/message/edit", "acc-D1a", { ...message("Changed", {}), id: web.body.data.id });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toBe("Only a draft or a scheduled message can be changed");
  });
});

describe("feedback", () => {
  it("goes from the app to staff and back: read on opening, needs handling, handled with a reply the user sees", async () => {
    const submitted = await call("POST", "/app/feedback/save", "u1a", {
      type: 2,
      content: "The chart loads slowly",
      contact: "u1a@example.com",
    });
    expect(submitted.status).toBe(200);
    const id = submitted.body.data.id as number;
    expect(submitted.body.data.state).toBe(0);

    const listed = await call("GET", "/admin/feedback/page?state=0&type=2", "acc-D1a");
    expect((listed.body.data.records as { id: number }[]).map((r) => r.id)).toContain(id);

    const opened = await call("POST", "/admin/feedback/open", "acc-D1a", { id });
    expect(opened.body.data.state).toBe(1);
    const staff = world.users.get("acc-I1a")?.id as number;
    const pending = await call("POST", "/admin/feedback/handle", "acc-D1a", { id, state: 2, assigneeId: staff });
    expect(pending.body.data).toMatchObject({ state: 2, assignee: "acc-I1a" });
    // A reply without naming the assignee keeps whoever has it.
    const handled = await call("POST", "/admin/feedback/handle", "acc-D1a", { id, state: 3, reply: "Fixed in the next version" });
    expect(handled.body.data).toMatchObject({ state: 3, assignee: "acc-I1a" });
    expect(handled.body.data.handledTime).not.toBeNull();

    // Only forward.
    const back = await call("POST", "/admin/feedback/handle", "acc-D1a", { id, state: 2 });
    expect(back.status).toBe(400);
    expect(back.body.msg).toBe("Feedback only moves forward: to be read, read, needs handling, handled");

    const mine = await call("GET", "/app/feedback/page", "u1a");
    const item = (mine.body.data.records as { id: number; state: number; replies: { content: string }[] }[]).find(
      (r) => r.id === id,
    );
    expect(item?.state).toBe(3);
    expect(item?.replies.map((r) => r.content)).toEqual(["Fixed in the next version"]);
    // Another end user does not see it.
    const others = await call("GET", "/app/feedback/page", "u1b");
    expect((others.body.data.records as { id: number }[]).map((r) => r.id)).not.toContain(id);
  });

  it("is hidden from a dealer of another branch, and its assignee must be in the caller's scope", async () => {
    const submitted = await call("POST", "/app/feedback/save", "u1a", { type: 0, content: "Cannot download" });
    const id = submitted.body.data.id as number;
    for (const who of ["acc-D1b", "acc-D2a", "acc-D2"]) {
      expect((await call("POST", "/admin/feedback/open", who, { id })).status, who).toBe(404);
      const list = await call("GET", "/admin/feedback/page?size=100", who);
      expect(
        (list.body.data.records as { id: number }[]).map((r) => r.id),
        who,
      ).not.toContain(id);
    }
    const foreign = await call("POST", "/admin/feedback/handle", "acc-D1a", {
      id,
      state: 2,
      assigneeId: world.users.get("acc-D2a")?.id,
    });
    expect(foreign.status).toBe(404);
  });

  it("exports the list as a workbook with types and states in the caller's language", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/admin/feedback/export",
      headers: { ...bearer(await world.token("acc-D1a")), "accept-language": "es" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("spreadsheetml");
    const { readWorkbook } = await import("../../src/workbooks/workbooks.ts");
    const rows = await readWorkbook(response.rawPayload);
    expect(rows[0]).toContain("Estado de tramitación");
    expect(rows.slice(1).map((r) => r[2])).toContain("Experiencia con la app");
    expect(rows.slice(1).map((r) => r[5])).toContain("Tramitada");
  });
});
