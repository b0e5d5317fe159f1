import { type InputLeaf, inputLeaves, type RouteContract } from "@ess/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Runtime } from "../../src/runtime.ts";
import { bearer } from "../helpers/accounts.ts";
import { type ChangeRequest, REGISTRY_ROUTES, type SampleContext, startWalkRuntime } from "./every-change.context.ts";
import { CHANGE_SAMPLES } from "./every-change.samples.ts";
import { READ_SAMPLES, type ReadWorld, readWorld, UNAUDITED_SAMPLES } from "./odd-input.samples.ts";

/**
 * The class test of odd input: EVERY route of the API registry (the OpenAPI document is built from
 * it) is sent its valid sample with one field, chosen by the route's own schema, replaced by odd
 * but possible input — NUL, lone surrogates, other control characters, very long, right-to-left
 * and emoji text; numbers past every column's range, negative, fractional, NaN as text; ids out of
 * range or of another tenant. Whatever comes back is never a 500, every change answered 2xx has
 * its operation-log line, another tenant's records stay as they were, and no NUL, surrogate or
 * control character reaches a stored text. Runs are few per route and the seed fixed, so a failure
 * repeats.
 */
const SEED = 20_251_125;
const RUNS = 6;

const routes = REGISTRY_ROUTES;
/** Routes that do not take part (the walk needs them as they are): none today. */
const SKIPPED = new Set<string>();

let runtime: Runtime;
let admin: string;
let context: SampleContext;
let world: ReadWorld;
/** Records of another tenant, which no odd id may change. */
let foreign: { device: number; user: number };
const foreignRows = async () =>
  (
    await runtime.db.query<{ row: string }>(
      `SELECT to_jsonb(d)::text AS row FROM device d WHERE tenant_id = 2
       UNION ALL SELECT to_jsonb(u)::text FROM sys_user u WHERE tenant_id = 2 ORDER BY 1`,
    )
  ).rows.map((r) => r.row);
let foreignBefore: string[];

beforeAll(async () => {
  ({ runtime, admin, context } = await startWalkRuntime());
  world = await readWorld(context, admin);
  await runtime.db.query("INSERT INTO tenant (id, name) VALUES (2, 'Other tenant') ON CONFLICT DO NOTHING");
  const user = await runtime.db.query<{ id: number }>(
    "INSERT INTO sys_user (tenant_id, username, password_hash, name) VALUES (2, 'other-tenant', 'x', 'Other') RETURNING id",
  );
  const device = await runtime.db.query<{ id: number }>(
    "INSERT INTO device (tenant_id, sn, name) VALUES (2, 'OTHERTENANT0001', 'Other') RETURNING id",
  );
  foreign = { user: user.rows[0]?.id as number, device: device.rows[0]?.id as number };
  foreignBefore = await foreignRows();
}, 120_000);
afterAll(() => runtime?.close());

const ODD_TEXT = [
  "a\u0000b",
  "\u0000",
  "\uD800",
  "tail\uDBFF",
  "\uDC00head",
  "\u0001\u0008\u001b[0m\u007f",
  "x".repeat(70_000),
  "مرحبا \u202Eevil\u202C 👩‍🔧🔋",
  "%00",
  " ",
  "",
];
const ODD_NUMBERS = [1e308, -1e308, -1, 0, 1.5, 32_768, 65_536, 2 ** 31, 2 ** 53 + 2, 1e30, -(2 ** 31) - 1];
const ODD_NUMBER_TEXT = ["1e308", "NaN", "Infinity", "-1", "99999999999999999999999", "1.5", "0x10", "2147483648", "\u0000"];
const ODD_OTHER = [null, true, "yes", [], {}, "2026-13-45T99:99:99Z", -8.64e15 - 1];

/** What one leaf may be replaced with, as JSON (body) or as text (query and path). */
function oddValues(leaf: InputLeaf, asText: boolean): unknown[] {
  const ids = [foreign.device, foreign.user];
  switch (leaf.kind) {
    case "text":
      return ODD_TEXT;
    case "number":
      return asText ? [...ODD_NUMBER_TEXT, ...ids.map(String)] : [...ODD_NUMBERS, ...ids, "1", "\u0000"];
    default:
      return asText ? [...ODD_TEXT.slice(0, 6), ...ODD_NUMBER_TEXT.slice(0, 4)] : [...ODD_OTHER, ...ODD_TEXT.slice(0, 3), 1e308];
  }
}

const clone = <T>(v: T): T => structuredClone(v);

/** `base` with the value at `path` replaced (a `*` is the first element, or a key of the record). */
function replaced(base: unknown, path: string[], value: unknown, recordKey: boolean): unknown {
  if (path.length === 0) {
    if (!recordKey) return value;
    const record = typeof base === "object" && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
    const first = Object.values(record)[0] ?? 1;
    return { ...record, [String(value)]: first };
  }
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") {
    if (Array.isArray(base)) {
      const copy = [...base];
      copy[0] = replaced(copy[0], rest, value, recordKey);
      return copy;
    }
    const record = typeof base === "object" && base !== null ? (base as Record<string, unknown>) : {};
    const key = Object.keys(record)[0] ?? "k";
    return { ...record, [key]: replaced(record[key], rest, value, recordKey) };
  }
  const object = typeof base === "object" && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...object, [head]: replaced(object[head], rest, value, recordKey) };
}

type Sent = ChangeRequest & { params?: Record<string, string> };
type Part = "query" | "params" | "body";

type Odd = { request: Sent; what: string };

/**
 * Odd requests of a route: the part and leaf chosen and the odd value, applied to the route's
 * sample. `examples` are always sent — every leaf once with its sharpest odd value (a NUL in text,
 * 1e308 for a number) — before the random runs.
 */
function oddRequests(contract: RouteContract, base: Sent): { arbitrary: fc.Arbitrary<Odd>; examples: [Odd][] } {
  const options: fc.Arbitrary<Odd>[] = [];
  const examples: [Odd][] = [];
  for (const part of ["query", "params", "body"] as Part[]) {
    const schema = contract[part] as z.ZodType | undefined;
    if (!schema) continue;
    const current = part === "params" ? base.params : part === "query" ? base.query : base.body;
    if (part === "body" && (Buffer.isBuffer(current) || typeof current === "string")) continue;
    const asText = part !== "body";
    for (const leaf of inputLeaves(schema)) {
      // A query or a path carries flat text; deeper paths cannot be sent there.
      if (asText && leaf.path.length !== 1) continue;
      const make = (value: unknown): Odd => {
        const request = clone(base) as Sent;
        const next = replaced(clone(current ?? {}), leaf.path, asText ? String(value) : value, leaf.recordKey === true);
        if (part === "query") request.query = next as Record<string, string>;
        else if (part === "params") request.params = next as Record<string, string>;
        else request.body = next;
        return {
          request,
          what: `${part}.${leaf.path.join(".")}${leaf.recordKey ? "(key)" : ""} = ${JSON.stringify(value)?.slice(0, 40)}`,
        };
      };
      const values = oddValues(leaf, asText);
      examples.push([make(values[0])]);
      // Just past what smallint and integer columns hold: numbers meet their column here.
      if (leaf.kind === "number") examples.push([make(asText ? "32768" : 32_768)], [make(asText ? "2147483648" : 2 ** 31)]);
      options.push(fc.constantFrom(...values).map(make));
    }
  }
  // A route without inputs still gets its sample, with odd query text it does not expect.
  if (options.length === 0) {
    const make = (value: string): Odd => ({ request: { ...base, query: { ...base.query, odd: value } }, what: "query.odd" });
    examples.push([make(ODD_TEXT[0] as string)]);
    options.push(fc.constantFrom(...ODD_TEXT.slice(0, 6)).map(make));
  }
  return { arbitrary: fc.oneof(...options), examples };
}

/**
 * Percent-encodes text for a URL as a careless client would: a lone surrogate as the three bytes
 * its code unit makes (WTF-8), where `encodeURIComponent` throws and URLSearchParams sends U+FFFD.
 */
function encodeOdd(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(value[i] as string);
  }
  return out;
}

async function send(contract: RouteContract, request: Sent) {
  const query = Object.entries(request.query ?? {})
    .map(([k, v]) => `${encodeOdd(k)}=${encodeOdd(v)}`)
    .join("&");
  const path = contract.path.replace(/:(\w+)/g, (_, name: string) => encodeOdd(request.params?.[name] ?? "1"));
  return runtime.app.inject({
    method: contract.method,
    url: query ? `${path}?${query}` : path,
    ...(request.body === undefined ? {} : { payload: request.body as object }),
    headers: { "accept-language": "en-US", ...(request.token ? bearer(request.token) : {}), ...request.headers },
  });
}

const lastLogId = async () =>
  Number((await runtime.db.query<{ id: number | null }>("SELECT max(id) AS id FROM sys_log")).rows[0]?.id ?? 0);

describe("odd input on every route: never a 500, never a change without its line, nothing odd stored", () => {
  it("walks every route of the registry", () => {
    expect(routes.length).toBeGreaterThan(120);
    const missing = routes
      .filter((r) => !SKIPPED.has(r.id))
      .filter((r) =>
        r.contract.method === "GET"
          ? needsInput(r.contract) && !READ_SAMPLES[r.id]
          : !CHANGE_SAMPLES[r.id] && !UNAUDITED_SAMPLES[r.id],
      )
      .map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it.each(routes.filter((r) => !SKIPPED.has(r.id)).map((r) => [r.id, r.contract] as const))(
    "%s",
    async (id, contract) => {
      const change = contract.method !== "GET";
      const sample = CHANGE_SAMPLES[id];
      const base: Sent = !change
        ? { token: admin, ...(READ_SAMPLES[id]?.(world) ?? {}) }
        : sample
          ? await sample(context, admin)
          : (UNAUDITED_SAMPLES[id]?.(admin) ?? {});
      if (!("public" in contract.access) && !base.token) base.token = admin;
      const { arbitrary, examples } = oddRequests(contract, base);
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ request, what }) => {
          const mark = change ? await lastLogId() : 0;
          const answer = await send(contract, request);
          expect(answer.statusCode, `${id} ${what}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
          if (change && contract.audit !== false && answer.statusCode < 300) {
            const { rows } = await runtime.db.query<{ status: number }>(
              "SELECT status FROM sys_log WHERE id > $1 AND log_type = 'operation' AND operation = $2",
              [mark, id],
            );
            expect(
              rows.map((r) => r.status),
              `${id} ${what}: its operation-log line`,
            ).toEqual([answer.statusCode]);
          }
        }),
        // A route without inputs ignores the odd query; one run besides the example tells as much.
        { seed: SEED, numRuns: contract.query || contract.body || contract.params ? RUNS : 1, endOnFailure: true, examples },
      );
    },
    60_000,
  );

  it("left another tenant's records as they were", async () => {
    expect(await foreignRows()).toEqual(foreignBefore);
  });

  it("stored no NUL, lone surrogate or control character in any text", async () => {
    const { rows: columns } = await runtime.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'json', 'jsonb')
         AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      // A lone surrogate reaches PostgreSQL as U+FFFD (the driver's UTF-8 encoding); the walk never sends U+FFFD.
      const { rows } = await runtime.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}"::text ~ $1`,
        ["[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\\ufffd]"],
      );
      if ((rows[0]?.n ?? 0) > 0) {
        const sample = await runtime.db.query<{ v: string }>(
          `SELECT "${column}"::text AS v FROM "${table}" WHERE "${column}"::text ~ $1 LIMIT 3`,
          ["[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\\ufffd]"],
        );
        found.push(`${table}.${column}: ${rows[0]?.n} ${JSON.stringify(sample.rows.map((r) => r.v.slice(0, 400)))}`);
      }
    }
    expect(found).toEqual([]);
  });
});

function needsInput(contract: RouteContract) {
  return Boolean(contract.query?.safeParse({}).success === false || contract.params);
}
