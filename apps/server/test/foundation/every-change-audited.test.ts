import type { RouteContract } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { bearer } from "../helpers/accounts.ts";
import { type ChangeJournal, installChangeJournal, type JournalRow } from "../helpers/change-journal.ts";
import { type ChangeRequest, REGISTRY_ROUTES, type SampleContext, startWalkRuntime } from "./every-change.context.ts";
import { CHANGE_SAMPLES } from "./every-change.samples.ts";

/**
 * The class test of the operation log: EVERY change route of the API registry, sent a request
 * that changes something, first while the log refuses its line — nothing may change, whatever
 * code path the route takes — and then normally — the route's first committed change is in the
 * same transaction as its line, and the line ends with the answer's status. A change journal
 * (row triggers on every table) sees every committed change, however it was made.
 */
const changeRoutes = REGISTRY_ROUTES.filter((r) => r.contract.method !== "GET" && r.contract.audit !== false);
/** Routes whose work is not a change of stored data: the line alone records them. */
const CHANGE_NOTHING = new Set(["realtime.sendReminder"]);

let runtime: Runtime;
let journal: ChangeJournal;
let admin: string;
let context: SampleContext;

beforeAll(async () => {
  ({ runtime, admin, context } = await startWalkRuntime());
  journal = await installChangeJournal(runtime.db);
}, 60_000);
afterAll(() => runtime?.close());

async function send(contract: RouteContract, request: ChangeRequest) {
  const query = new URLSearchParams(request.query ?? {}).toString();
  return runtime.app.inject({
    method: contract.method,
    url: query ? `${contract.path}?${query}` : contract.path,
    ...(request.body === undefined ? {} : { payload: request.body as object }),
    headers: { "accept-language": "en-US", ...(request.token ? bearer(request.token) : {}), ...request.headers },
  });
}

const isPlainBody = (body: unknown): body is Record<string, unknown> =>
  typeof body === "object" && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body);

/** The journal since `mark`, once it has been still for a moment (work a request left running ends). */
async function settled(mark: number): Promise<JournalRow[]> {
  let last = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const rows = await journal.since(mark);
    if (rows.length === last) return rows;
    last = rows.length;
  }
}

describe("every change route writes its operation-log line in the transaction of its first change", () => {
  it("has a change sample for every change route of the API registry", () => {
    expect(changeRoutes.length).toBeGreaterThanOrEqual(70);
    expect(journal.tables).toBeGreaterThan(40);
    expect(changeRoutes.map((r) => r.id).filter((id) => !CHANGE_SAMPLES[id])).toEqual([]);
  });

  it.each(changeRoutes.map((r) => [r.id, r.contract] as const))("%s", async (id, contract) => {
    const sample = CHANGE_SAMPLES[id];
    if (!sample) throw new Error(`no change sample for ${id}`);
    const request = await sample(context, admin);

    await journal.refuseLog(true);
    const refusing = await journal.mark();
    const refused = await send(contract, request).finally(() => journal.refuseLog(false));
    const changedWithoutLine = await settled(refusing);
    expect(changedWithoutLine, `${id} changed data while its line could not be written`).toEqual([]);

    // Sent normally, with a NUL and a lone surrogate in an extra field: the line keeps them, escaped.
    const odd = isPlainBody(request.body) ? { ...request, body: { ...request.body, "odd\u0000": "\uD800\u0000" } } : request;
    const mark = await journal.mark();
    const answer = await send(contract, odd);
    const rows = await settled(mark);
    const lines = rows.filter((r) => r.table === "sys_log" && r.logType === "operation");
    expect(
      lines.map((r) => r.operation),
      `${id}: one line (${answer.statusCode} ${answer.body.slice(0, 300)})`,
    ).toEqual([id]);
    const changes = rows.filter((r) => r.table !== "sys_log");
    if (CHANGE_NOTHING.has(id)) {
      expect(changes).toEqual([]);
    } else {
      expect(changes.length, `${id} changes something: ${answer.statusCode} ${answer.body.slice(0, 300)}`).toBeGreaterThan(0);
      expect(changes[0]?.xid, `${id}: its first change and its line are one transaction`).toBe(lines[0]?.xid);
      // Without its line the change is refused as a whole, and the caller is told that nothing changed.
      expect(refused.statusCode, `${id} while the log refuses: ${refused.body.slice(0, 300)}`).toBe(503);
    }
    // The line ends with the answer it gave, and keeps the odd field.
    const { rows: logged } = await runtime.db.query<{ status: number; params: { body: Record<string, unknown> | null } }>(
      "SELECT status, params FROM sys_log WHERE operation = $1 AND log_type = 'operation' ORDER BY id DESC LIMIT 1",
      [id],
    );
    expect(logged[0]?.status).toBe(answer.statusCode);
    if (odd !== request) expect(logged[0]?.params.body?.["odd\\u0000"]).toBe("\\ud800\\u0000");
  });
});
