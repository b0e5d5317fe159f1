import { API, type RouteContract } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bearer } from "../helpers/accounts.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * Every route of the API registry, sent input its contract refuses: each answers 400 with code 1,
 * names every refused field with a translated message, and changes nothing.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app);
});
afterAll(() => t.close());

const routes = Object.entries(API).flatMap(([group, list]) =>
  Object.entries(list as Record<string, RouteContract>).map(([name, contract]) => ({ id: `${group}.${name}`, contract })),
);

/** Keys of an object schema (through intersections), to send each one a value of the wrong shape. */
function keysOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: object;
    allOf?: { properties?: object }[];
  };
  return [
    ...new Set([
      ...Object.keys(json.properties ?? {}),
      ...(json.allOf ?? []).flatMap((part) => Object.keys(part.properties ?? {})),
    ]),
  ];
}

function badRequest(contract: RouteContract) {
  const query = Object.fromEntries(
    keysOf(contract.query).map((k) => [k, k === "size" || k === "current" ? "0" : "∅ not valid ∅"]),
  );
  const path = contract.path.replace(/:(\w+)/g, "not-a-number");
  const qs = new URLSearchParams(query).toString();
  const body =
    contract.body === undefined
      ? undefined
      : contract.body instanceof z.ZodArray
        ? [{}]
        : Object.fromEntries(keysOf(contract.body).map((k) => [k, [[]]]));
  return { url: qs ? `${path}?${qs}` : path, body };
}

async function snapshot() {
  const tables = [
    "sys_user",
    "sys_user_role",
    "sys_role",
    "sys_role_permission",
    "sys_menu",
    "organisation",
    "device",
    "account_cancellation",
    "sys_user_social",
  ];
  const rows = await Promise.all(
    tables.map(
      async (table) =>
        (await t.db.query(`SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS h FROM ${table} x`)).rows[0],
    ),
  );
  const logs = (await t.db.query("SELECT count(*)::int AS n FROM sys_log WHERE log_type = 'client-error' OR status < 400"))
    .rows[0];
  return JSON.stringify([rows, logs]);
}

const withInput = routes.filter(({ contract }) => contract.body || contract.params || keysOf(contract.query).length > 0);

describe("bad input on every route", () => {
  it("says a value of the wrong type is of the wrong type, once per field", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/sys/user/save",
      payload: { username: [[]], password: "Start2025x", name: "x", userType: 0, roleIds: [1] },
      headers: { ...bearer(token), "accept-language": "en-US" },
    });
    expect(response.json().data.fields).toEqual([{ field: "username", message: "Account has the wrong type" }]);
  });

  it("finds the routes that take input", () => {
    expect(withInput.length).toBeGreaterThanOrEqual(40);
  });

  it.each(withInput.map((r) => [r.id, r] as const))(
    "%s names each refused field, translated, and changes nothing",
    async (_, { contract }) => {
      const before = await snapshot();
      const { url, body } = badRequest(contract);
      const answers: Record<string, { status: number; fields: { field: string; message: string }[] }> = {};
      for (const lang of ["en-US", "it"]) {
        const response = await t.app.inject({
          method: contract.method,
          url,
          ...(body === undefined ? {} : { payload: body }),
          headers: { ...bearer(token), "accept-language": lang },
        });
        const json = response.json();
        answers[lang] = { status: response.statusCode, fields: json.data?.fields ?? [] };
        // A query of free-text filters only has nothing that can be wrong: it must simply work.
        if (response.statusCode === 200 && !contract.body && !contract.params) continue;
        expect(response.statusCode, `${lang}: ${response.body.slice(0, 300)}`).toBe(400);
        expect(json).toMatchObject({ code: 1, errorCode: "400" });
        expect(json.data.fields.length).toBeGreaterThan(0);
        for (const f of json.data.fields) {
          expect(f.field).toMatch(/^[A-Za-z_0-9.]+$/);
          expect(f.message).not.toMatch(/^(validation|fields):|\{\{/);
        }
      }
      if (answers["en-US"]?.status === 400) {
        expect(answers.it?.fields.map((f) => f.field)).toEqual(answers["en-US"].fields.map((f) => f.field));
        expect(answers.it?.fields.map((f) => f.message)).not.toEqual(answers["en-US"].fields.map((f) => f.message));
      }
      expect(await snapshot()).toBe(before);
    },
  );
});
