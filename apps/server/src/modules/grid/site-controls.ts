import { type ControlBase, commandMode, GRID_COMMAND_KINDS, invalidControlFields } from "@ess/domain";
import { type DERControl, type DERProgram, RESPONSE_STATUS } from "@ess/sep2";
import { dueResponse, OPEN_RESPONSES, span } from "./event-responses.ts";
import type { CommandInput, CommandRow } from "./grid.repository.ts";
import { type GridContext, type Site, seconds } from "./grid-context.ts";
import { readList } from "./list-reader.ts";

/**
 * The control side of a site: function set assignments → DER programs (primacy) → the default
 * control and the event controls. Each control is stored as a grid command; the responses the
 * utility asks for (received, started, completed, cancelled, superseded) are posted to its replyTo.
 * Applying the controls to the device is not done here.
 */

/** Reads the function set assignments and keeps their program lists; resolves to the list's pollRate. */
export async function pollAssignments(ctx: GridContext, site: Site): Promise<number | undefined> {
  const href = site.endDevice?.FunctionSetAssignmentsListLink?.href;
  if (!href) return undefined;
  const { items, pollRate } = await readList(
    ctx.http,
    href,
    "FunctionSetAssignmentsList",
    (l) => l.FunctionSetAssignments,
    site.row.id,
  );
  site.programLists = items.flatMap((fsa) => (fsa.DERProgramListLink ? [fsa.DERProgramListLink.href] : []));
  site.assignmentsRead = true;
  return pollRate;
}

/** Reads every program and its controls; resolves to the smallest DERProgramList pollRate. */
export async function pollPrograms(ctx: GridContext, site: Site): Promise<number | undefined> {
  let rate: number | undefined;
  const listed: Listed = { programs: new Set(), defaults: new Set(), gradW: [], unacknowledged: [] };
  for (const href of site.programLists) {
    const { items, pollRate } = await readList(ctx.http, href, "DERProgramList", (l) => l.DERProgram, site.row.id);
    if (pollRate !== undefined) rate = Math.min(rate ?? pollRate, pollRate);
    for (const program of items) await pollProgram(ctx, site, program, listed);
  }
  // The ramp written to the DER settings (at the next DER list poll) is the one the device is given.
  site.gradW = listed.gradW.sort((a, b) => a.primacy - b.primacy)[0]?.gradW;
  try {
    // Acknowledged once every program is stored, so a utility going quiet mid-poll leaves the
    // site with its whole schedule rather than the controls before the first failed response.
    // An event no site could follow as said is answered invalid instead (and never scheduled).
    for (const row of listed.unacknowledged)
      await respond(
        ctx,
        site,
        row,
        invalidControlFields(row.controls as ControlBase).length > 0 ? RESPONSE_STATUS.invalid : RESPONSE_STATUS.received,
      );
    await retireUnlisted(ctx, site, listed);
    await settleEvents(ctx, site);
  } finally {
    // The schedule is worked out again once the whole poll is stored, never from half of it —
    // also when posting a response then fails (the utility gone quiet, CSIP-AUS ALL-23): what was
    // stored is complete, and the site must follow it offline.
    if (site.controlsChanged) ctx.schedules.changed(site.row.id);
    site.controlsChanged = false;
  }
  ctx.marks.mark(site.row.id, new Date(ctx.clock.now()), null);
  return rate;
}

/** The programs and default controls a complete poll found for the site. */
interface Listed {
  programs: Set<string>;
  defaults: Set<string>;
  /** setGradW of each default control that carries one, with its program's primacy. */
  gradW: { primacy: number; gradW: number }[];
  /** Events stored this poll that have had no response yet (to be answered received). */
  unacknowledged: CommandRow[];
}

/**
 * Retires the commands of programs no longer assigned to the site (CSIP-AUS P-02: its
 * FunctionSetAssignment or DERProgram is gone) and defaults a program replaced: they leave the
 * schedule and get no more responses. Only after the assignments were read in this run (an empty
 * list before that means "not read yet", not "nothing assigned"), and only when what is listed
 * differs from the last poll, so a steady site costs no statement.
 */
async function retireUnlisted(ctx: GridContext, site: Site, listed: Listed): Promise<void> {
  if (!site.assignmentsRead) return;
  const signature = JSON.stringify([[...listed.programs].sort(), [...listed.defaults].sort()]);
  if (site.listedSignature === signature) return;
  const retired = await ctx.repo.retireUnlisted(
    site.row.id,
    [...listed.programs],
    [...listed.defaults],
    new Date(ctx.clock.now()),
  );
  site.listedSignature = signature;
  if (retired.length === 0) return;
  for (const mrid of retired) site.commands?.delete(mrid);
  site.controlsChanged = true;
}

async function pollProgram(ctx: GridContext, site: Site, program: DERProgram, listed: Listed): Promise<void> {
  listed.programs.add(program.mRID);
  const at = new Date(ctx.clock.now());
  const common = { tenantId: site.row.tenantId, siteId: site.row.id, programMrid: program.mRID, primacy: program.primacy };
  if (program.DefaultDERControlLink) {
    const fallback = await ctx.http.get(program.DefaultDERControlLink.href, ["DefaultDERControl"], site.row.id);
    listed.defaults.add(fallback.mRID);
    if (fallback.setGradW !== undefined) listed.gradW.push({ primacy: program.primacy, gradW: fallback.setGradW });
    await store(
      ctx,
      site,
      {
        ...common,
        mrid: fallback.mRID,
        kind: GRID_COMMAND_KINDS.default,
        mode: commandMode(fallback.DERControlBase ?? {}),
        startAt: null,
        durationS: null,
        controls: { ...fallback.DERControlBase, ...(fallback.setGradW === undefined ? {} : { setGradW: fallback.setGradW }) },
        eventStatus: null,
        replyTo: null,
        responseRequired: null,
        ...NO_EVENT_FIELDS,
      },
      at,
    );
  }
  if (!program.DERControlListLink) return;
  const { items } = await readList(ctx.http, program.DERControlListLink.href, "DERControlList", (l) => l.DERControl, site.row.id);
  for (const control of items) {
    const row = await store(ctx, site, { ...common, ...eventFields(control) }, at);
    if (row.responseStatus === null) listed.unacknowledged.push(row);
  }
}

/**
 * Stores a control as the site's command unless it is what was stored last time (most polls find
 * nothing new: one statement per control per poll was most of a site's database work). The
 * command rows are kept in memory for the site, so its open events are known without a query;
 * the client is the only writer of their responses.
 */
async function store(ctx: GridContext, site: Site, input: CommandInput, at: Date): Promise<CommandRow> {
  const commands = await siteCommands(ctx, site);
  const { tenantId: _tenant, siteId: _site, ...said } = input;
  const signature = JSON.stringify(said);
  const known = commands.get(input.mrid);
  if (known?.signature === signature) return known.row;
  const row = await ctx.repo.upsertCommand(input, at);
  commands.set(input.mrid, { row, signature });
  site.controlsChanged = true;
  return row;
}

/** The site's commands as last stored; read once from the database (its open events) when the site starts. */
async function siteCommands(ctx: GridContext, site: Site): Promise<NonNullable<Site["commands"]>> {
  if (!site.commands) {
    const open = await ctx.repo.openEvents(site.row.id);
    // The signature is unknown: the first poll stores each of them again.
    site.commands ??= new Map(open.map((row) => [row.mrid, { row, signature: "" }]));
  }
  return site.commands;
}

/**
 * Events acknowledged (received) whose last response is not final, by start then id; events over
 * with a final response are dropped from memory (a later listing stores them again, answered).
 */
async function openEvents(ctx: GridContext, site: Site): Promise<CommandRow[]> {
  const commands = await siteCommands(ctx, site);
  const now = ctx.serverNow();
  const open: CommandRow[] = [];
  for (const [mrid, { row }] of commands) {
    if (row.kind !== GRID_COMMAND_KINDS.event) continue;
    if (row.responseStatus !== null && OPEN_RESPONSES.has(row.responseStatus)) open.push(row);
    else if (row.responseStatus !== null && (row.startAt?.getTime() ?? 0) + (row.durationS ?? 0) * 1000 < now) {
      commands.delete(mrid);
      site.takes?.delete(mrid);
    }
  }
  return open.sort((a, b) => (a.startAt?.getTime() ?? 0) - (b.startAt?.getTime() ?? 0) || a.id - b.id);
}

function eventFields(control: DERControl) {
  return {
    mrid: control.mRID,
    kind: GRID_COMMAND_KINDS.event,
    mode: commandMode(control.DERControlBase ?? {}),
    startAt: new Date(control.interval.start * 1000),
    durationS: control.interval.duration,
    controls: control.DERControlBase ?? {},
    eventStatus: control.EventStatus?.currentStatus ?? null,
    replyTo: control.replyTo ?? null,
    responseRequired: control.responseRequired ?? null,
    creationTime: new Date(control.creationTime * 1000),
    eventStatusAt: control.EventStatus?.dateTime === undefined ? null : new Date(control.EventStatus.dateTime * 1000),
    randomizeStart: control.randomizeStart ?? null,
    randomizeDuration: control.randomizeDuration ?? null,
  };
}

const NO_EVENT_FIELDS = { creationTime: null, eventStatusAt: null, randomizeStart: null, randomizeDuration: null };

/** responseRequired bit 0: "received" wanted; bit 1: the specific responses (started, completed…). */
function wanted(row: CommandRow, status: number): boolean {
  const bits = Number.parseInt(row.responseRequired ?? "0", 16) || 0;
  return status === RESPONSE_STATUS.received ? (bits & 1) !== 0 : (bits & 2) !== 0;
}

/**
 * Records the response as the command's state and posts it when the utility asked for it; a
 * status it did not ask for moves the command on all the same, so later ones follow in order.
 */
async function respond(ctx: GridContext, site: Site, row: CommandRow, status: number): Promise<void> {
  if (row.replyTo && wanted(row, status)) {
    // Answered by one process only: not after another took the lease over (the record below is fenced too).
    await ctx.fence.ensure(true);
    await ctx.http.send(
      "POST",
      row.replyTo,
      "DERControlResponse",
      { createdDateTime: seconds(ctx.serverNow()), endDeviceLFDI: site.row.lfdi, status, subject: row.mrid },
      site.row.id,
    );
  }
  await ctx.repo.responded(row.id, site.row.id, status, new Date(ctx.clock.now()));
  row.responseStatus = status;
}

/**
 * Posts every response now due (an event that ended unseen gets started, then completed), with
 * what the site's device made of each event (site.takes) where it is known.
 */
export async function settleEvents(ctx: GridContext, site: Site): Promise<void> {
  const open = await openEvents(ctx, site);
  for (const row of open) {
    const due = () => dueResponse(row, ctx.serverNow(), open, site.row.lfdi, site.takes?.get(row.mrid));
    for (let status = due(); status !== null; status = due()) {
      await respond(ctx, site, row, status);
      if (status !== RESPONSE_STATUS.started && status !== RESPONSE_STATUS.received) break;
    }
  }
}

/** Time (ms) until the next (randomised) start or end of an open event, for the site's event timer. */
export async function nextEventBoundary(ctx: GridContext, site: Site): Promise<number | null> {
  const now = ctx.serverNow();
  let next: number | null = null;
  for (const row of await openEvents(ctx, site)) {
    if (!row.startAt) continue;
    const { start, end } = span(row, site.row.lfdi);
    for (const t of [start, end]) if (t > now && (next === null || t < next)) next = t;
  }
  return next === null ? null : next - now;
}
