import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount } from "../helpers/accounts.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * The operation log and the changes it records succeed or fail together, and the log keeps what
 * it was given — a NUL, a lone surrogate, a very long parameter — visibly, without failing.
 */
let t: TestApp;
let admin: string;
let agentRole: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  agentRole = (await t.db.query<{ id: number }>("SELECT id FROM sys_role WHERE code = 'AGENT'")).rows[0]?.id as number;
});
afterAll(() => t.close());

const post = (url: string, payload: object, token: string | null = admin) =>
  t.app.inject({ method: "POST", url, payload, headers: { ...(token ? bearer(token) : {}), "accept-language": "en-US" } });

interface Line {
  operator_name: string;
  status: number;
  error_code: string | null;
  params: { body: Record<string, unknown> } & { truncated?: string };
}
const lastLine = async (operation: string) =>
  (
    await t.db.query<Line>(
      "SELECT operator_name, status, error_code, params FROM sys_log WHERE operation = $1 ORDER BY id DESC LIMIT 1",
      [operation],
    )
  ).rows[0];
const userRow = async (id: number) =>
  (await t.db.query<{ name: string; status: number }>("SELECT name, status FROM sys_user WHERE id = $1", [id])).rows[0];

describe("a change and its operation-log line", () => {
  it("are rolled back together when the line cannot be written, and the caller hears that nothing changed", async () => {
    const id = await createAccount(t.db, { username: "lockable" });
    await t.db.exec(`
      CREATE FUNCTION refuse_log() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RAISE EXCEPTION 'disk full'; END $fn$;
      CREATE TRIGGER refuse_log BEFORE INSERT ON sys_log FOR EACH ROW EXECUTE FUNCTION refuse_log();`);
    try {
      const refused = await post("/sys/user/lock", { id, status: 1 });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().msg).toBe(
        "The change could not be written to the operation log, so nothing was changed; please try again later",
      );
      expect((await userRow(id))?.status).toBe(0);
    } finally {
      await t.db.exec("DROP TRIGGER refuse_log ON sys_log; DROP FUNCTION refuse_log();");
    }
    expect((await post("/sys/user/lock", { id, status: 1 })).statusCode).toBe(200);
    expect((await userRow(id))?.status).toBe(1);
    expect(await lastLine("user.lock")).toMatchObject({ status: 200, params: { body: { id, status: 1 } } });
  });

  it("keep a NUL in an extra field: the change is made and its line shows the NUL escaped", async () => {
    const id = await createAccount(t.db, { username: "nul-extra" });
    const answer = await post("/sys/user/edit", { id, name: "Nul Extra", roleIds: [agentRole], "note\u0000": "a\u0000b" });
    expect(answer.statusCode).toBe(200);
    expect((await userRow(id))?.name).toBe("Nul Extra");
    const line = await lastLine("user.edit");
    expect(line?.status).toBe(200);
    expect(line?.params.body).toMatchObject({ id, name: "Nul Extra", "note\\u0000": "a\\u0000b" });
  });

  it("keep a lone surrogate in a value escaped in the line, whether the change is made or refused", async () => {
    const id = await createAccount(t.db, { username: "surrogate" });
    const answer = await post("/sys/user/edit", { id, name: "Ann \uD800", roleIds: [agentRole] });
    expect(answer.statusCode).not.toBe(500);
    const line = await lastLine("user.edit");
    expect(line?.status).toBe(answer.statusCode);
    expect(line?.params.body.name).toBe("Ann \\ud800");
  });

  it("record a sign-in whose user name holds a NUL, with the name escaped", async () => {
    await post("/login?grant_type=admin", { username: "ad\u0000min", password: "Whatever1" }, null);
    const line = await lastLine("auth.login");
    expect(line?.operator_name).toBe("ad\\u0000min");
    expect(line?.params.body).toMatchObject({ username: "ad\\u0000min", password: "***" });
  });

  it("record a change whose body nests deeper than any request, with the depth marked", async () => {
    const id = await createAccount(t.db, { username: "deep-params" });
    const depth = 20_000;
    const body = `{"id":${id},"name":"Deep","roleIds":[${agentRole}],"x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const answer = await t.app.inject({
      method: "POST",
      url: "/sys/user/edit",
      payload: body,
      headers: { ...bearer(admin), "content-type": "application/json", "accept-language": "en-US" },
    });
    expect(answer.statusCode).toBe(200);
    expect((await userRow(id))?.name).toBe("Deep");
    const line = await lastLine("user.edit");
    expect(line?.status).toBe(200);
    expect(JSON.stringify(line?.params.body.x)).toContain("[nested too deep to record]");
  });

  it("cut very long parameters without splitting a character, and still make the change", async () => {
    const id = await createAccount(t.db, { username: "long-params" });
    // The logged parameters pass 8,000 characters in the middle of an emoji (two UTF-16 units).
    const body = { id, name: "Long", roleIds: [agentRole], filler: "" };
    const before = JSON.stringify({ query: {}, params: {}, body }).length - 3;
    body.filler = `${"x".repeat(8000 - before - 1)}${"😀".repeat(50)}`;
    expect((await post("/sys/user/edit", body)).statusCode).toBe(200);
    const truncated = (await lastLine("user.edit"))?.params.truncated as string;
    expect(truncated).toHaveLength(7999);
    expect(truncated.endsWith("x".repeat(10))).toBe(true);
  });
});
