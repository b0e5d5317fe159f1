import { type ActiveControl, GRID_EXCHANGE_RETENTION_DAYS, GRID_REGISTRATION_STATES, PRODUCT } from "@ess/domain";
import { siteIdentity } from "@ess/domain/grid/hashed-identity.ts";
import type { DeviceCapability, EndDevice } from "@ess/sep2";
import type { LeaseFence } from "../../cluster/job-lease.ts";
import type { Db } from "../../db/db.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { createDeviceFacts } from "./device-facts.ts";
import type { DeviceTake } from "./event-responses.ts";
import { createExchangeWriter } from "./exchange-writer.ts";
import { createGridRepository, type GridSitesScope, type ParticipantDevice } from "./grid.repository.ts";
import { type GridClock, type GridContext, type GridLog, type Site, seconds } from "./grid-context.ts";
import type { GridCredentials } from "./grid-credentials.ts";
import { createGridFence } from "./grid-fence.ts";
import { readList } from "./list-reader.ts";
import { runLoop } from "./poll-loop.ts";
import { createPollMarks } from "./poll-marks.ts";
import { createSepClient } from "./sep-client.ts";
import { createSharedReads } from "./shared-reads.ts";
import { nextEventBoundary, pollAssignments, pollPrograms, settleEvents } from "./site-controls.ts";
import { postReadings, syncMirrors } from "./site-mirror.ts";
import { describeDer, registerSite, writeConnectionPoint } from "./site-registration.ts";
import { createSiteSchedules, type EffectiveControlHook } from "./site-schedule.ts";

/**
 * The aggregator client (IEEE 2030.5 / CSIP-AUS): the console speaking to the utility for every
 * participating device. Discovery (dcap, time, EndDevices) runs at the server's rates; each site
 * then has its own loops — function set assignments, programs and controls, event timing, DER
 * status, metering mirror — each at the rate the server last gave for it.
 */

export interface PinMismatchEvent {
  tenantId: number;
  siteId: number;
  deviceId: number;
  sn: string;
}

export interface GridClientOptions {
  db: Db;
  credentials: GridCredentials;
  dcapUrl: string;
  pen: number;
  scope: GridSitesScope;
  defaultPin?: string;
  clock?: GridClock;
  log: GridLog;
  metrics: Metrics;
  onPinMismatch?: (event: PinMismatchEvent) => void;
  /** First wait after a failure, ms of the client's clock (doubles up to the list's own rate). */
  retryMs?: number;
  /** Polling rounds of all sites start on whole multiples of this (ms of the client's clock; default 1 s). */
  pollAlignMs?: number;
  /** Told each site's control in force when its schedule starts and whenever it changes (default: nothing). */
  onEffectiveControl?: EffectiveControlHook;
  /**
   * The `grid` job's lease and token the client runs under: its writes hold only while the lease
   * does, and it stops once they find it taken over (grid-fence.ts). None: unfenced.
   */
  fence?: LeaseFence;
  /** Aborts when the lease is lost: the client stops writing and sending at once (its stop follows). */
  signal?: AbortSignal;
}

export interface GridClient {
  /** Sites the client currently works for, by device id. */
  sites(): ReadonlyMap<number, Site>;
  stop(): Promise<void>;
}

/** A second: a delay no pollRate of a minute or more would notice. */
const DEFAULT_POLL_ALIGN_MS = 1_000;

/** Rates (s) until the server gives its own: the CSIP-AUS defaults. */
const DEFAULT_RATES = { dcap: 300, edevList: 300, fsaList: 300, derpList: 60, derList: 60, post: 60 };

export const realClock: GridClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
};

export function startGridClient(options: GridClientOptions): GridClient {
  const clock = options.clock ?? realClock;
  const stop = new AbortController();
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", () => stop.abort(options.signal?.reason), { once: true });
  const fence = createGridFence({ db: options.db, lease: options.fence ?? null, stop, log: options.log });
  const repo = createGridRepository(options.db, fence);
  const running: Promise<void>[] = [];
  const sites = new Map<number, Site>();
  const tenantOf = new Map<number, number>();
  /** PIN that failed per site: retried only once staff change it. */
  const refusedPin = new Map<number, string | null>();
  let offsetMs = 0;
  let dcap: DeviceCapability | undefined;
  let ready: (() => void) | undefined;
  const discovered = new Promise<void>((resolve) => {
    ready = resolve;
  });

  const exchanges = createExchangeWriter(options.db, {
    onError: (error) => options.log.warn({ err: error }, "grid: exchanges not stored"),
  });
  const sep = createSepClient({
    dcapUrl: options.dcapUrl,
    ...options.credentials,
    onRequest: (method, status) => options.metrics.gridRequests.inc({ method, status: String(status) }),
    onExchange: (exchange) => {
      const tenantId = (exchange.siteId && tenantOf.get(exchange.siteId)) || PRODUCT.defaultTenantId;
      exchanges.add({ tenantId, exchange, at: new Date(clock.now()) });
    },
  });
  // Nothing that changes something at the utility goes out once the client has stopped or lost its lease.
  const http: typeof sep = { ...sep, send: (...request) => fence.ensure().then(() => sep.send(...request)) };

  const serverNow = () => clock.now() + offsetMs;
  /** How each device took the events applied to it, by device id then event mRID (see Site.takes). */
  const takes = new Map<number, Map<string, DeviceTake>>();
  const takesOf = (deviceId: number) => {
    const known = takes.get(deviceId) ?? new Map<string, DeviceTake>();
    takes.set(deviceId, known);
    return known;
  };
  /** A device's take of an event: the site answers at once (a refusal is told, not kept for the end). */
  function took(deviceId: number, active: ActiveControl | null, take: DeviceTake): void {
    if (active?.source.kind !== "event") return;
    takesOf(deviceId).set(active.source.mrid, take);
    const site = sites.get(deviceId);
    site?.settle?.().catch(failed("events", site.row.id));
  }
  const hook = options.onEffectiveControl;
  const schedules = createSiteSchedules({
    repo,
    clock,
    serverNow,
    log: options.log,
    onEffectiveControl:
      hook && ((siteId, deviceId, active) => hook(siteId, deviceId, active, (take) => took(deviceId, active, take), fence.lease)),
    signal: stop.signal,
  });
  // Schedules of sites registered before run from what was stored, whether the utility answers or not.
  const booted = repo
    .scheduledSites(options.scope)
    .then((list) => {
      for (const site of list) schedules.ensure(site);
    })
    .catch((error) => options.log.warn({ err: error }, "grid: stored control schedules not resumed"));

  const marks = createPollMarks(options.db, {
    onError: (error) => options.log.warn({ err: error }, "grid: poll times not stored"),
  });
  const ctx: GridContext = {
    http,
    repo,
    fence,
    marks,
    shared: createSharedReads(() => clock.now()),
    facts: createDeviceFacts(options.db),
    schedules,
    clock,
    log: options.log,
    aggregator: options.credentials.identity,
    pen: options.pen,
    serverNow,
    dcap: () => dcap as DeviceCapability,
  };

  const failed = (task: string, siteId?: number) => (error: unknown) => {
    // Stopped, or fenced out (told once, by the fence): what was under way is left as it is.
    if (stop.signal.aborted) return;
    options.metrics.gridFailures.inc({ task });
    options.log.warn({ err: error, task, siteId }, "grid: utility exchange failed; tried again later");
    if (siteId !== undefined) marks.mark(siteId, new Date(clock.now()), task);
  };
  const rateMs = (rate: number | undefined, fallback: number) => (rate ?? fallback) * 1000;

  /** Loops whose round resolves to a wait until a given moment rather than to a pollRate. */
  const UNTIL_A_MOMENT = new Set(["events", "mirror"]);
  /** Each periodic loop's period before the utility gave one: its default rate. */
  const DEFAULT_PERIOD_S: Record<string, number> = {
    discovery: DEFAULT_RATES.dcap,
    endDevices: DEFAULT_RATES.edevList,
    assignments: DEFAULT_RATES.fsaList,
    programs: DEFAULT_RATES.derpList,
    der: DEFAULT_RATES.derList,
  };
  function loop(task: string, signal: AbortSignal, run: () => Promise<number>, siteId?: number, firstWaitMs?: number) {
    const periodic = !UNTIL_A_MOMENT.has(task);
    const defaultPeriodS = DEFAULT_PERIOD_S[task];
    running.push(
      runLoop({
        clock,
        signal,
        run: async () => {
          const wait = await run();
          options.metrics.gridRounds.inc({ task });
          return wait;
        },
        onFailure: failed(task, siteId),
        retryMs: options.retryMs,
        firstWaitMs,
        periodic,
        periodMs: defaultPeriodS === undefined ? undefined : defaultPeriodS * 1000,
        // Only rounds at a pollRate: a wait until a moment (an event's start) must end on it.
        alignMs: periodic ? (options.pollAlignMs ?? DEFAULT_POLL_ALIGN_MS) : undefined,
      }),
    );
  }

  async function discover(): Promise<number> {
    dcap = await http.get(http.dcapPath, ["DeviceCapability"]);
    if (dcap.TimeLink) {
      const time = await http.get(dcap.TimeLink.href, ["Time"]);
      // Events are timed on the utility's clock; the local clock is only corrected, never trusted alone.
      offsetMs = time.currentTime * 1000 - clock.now();
    }
    ready?.();
    // Exchanged documents are kept for review for a while, then dropped (checked at discovery's pace).
    await repo.pruneExchanges(new Date(clock.now() - GRID_EXCHANGE_RETENTION_DAYS * 86_400_000));
    return rateMs(dcap.pollRate, DEFAULT_RATES.dcap);
  }

  async function syncSites(): Promise<number> {
    await discovered;
    const listHref = dcap?.EndDeviceListLink?.href;
    if (!listHref) throw new Error("DeviceCapability has no EndDeviceListLink");
    const { items, pollRate } = await readList(http, listHref, "EndDeviceList", (l) => l.EndDevice);
    // The aggregator's own EndDevice comes first; it is not a site.
    const listed = items.filter((e) => e.lFDI?.toUpperCase() !== ctx.aggregator.lfdi);
    const wanted = await repo.participants(options.scope);
    const wantedIds = new Set(wanted.map((d) => d.deviceId));
    for (const [deviceId, site] of sites) {
      if (!wantedIds.has(deviceId)) {
        site.stop.abort();
        schedules.stop(site.row.id);
        sites.delete(deviceId);
      }
    }
    for (const device of wanted) {
      const running = sites.get(device.deviceId);
      // A running site follows staff's edits (the NMI); a new one is registered.
      if (running) running.device = device;
      else await startSite(device, listed);
    }
    return rateMs(pollRate, DEFAULT_RATES.edevList);
  }

  async function startSite(device: ParticipantDevice, listed: EndDevice[]): Promise<void> {
    const identity = siteIdentity(ctx.aggregator.lfdi, device.sn, options.pen);
    const row = await repo.ensureSite(device, identity.lfdi, identity.sfdi);
    tenantOf.set(row.id, row.tenantId);
    if (refusedPin.has(row.id) && refusedPin.get(row.id) === row.pin) return;
    const site: Site = { row, device, stop: new AbortController(), programLists: [], takes: takesOf(device.deviceId) };
    const outcome = await registerSite(ctx, site, listed, options.defaultPin).catch((error) => {
      failed("register", row.id)(error);
      return null;
    });
    if (!outcome) return;
    if (outcome.kind === "pinMismatch") {
      // CSIP-AUS: a site whose PIN differs is not operated; nothing more is sent for it.
      refusedPin.set(row.id, row.pin);
      await booted;
      schedules.stop(row.id);
      await repo.setRegistration(row.id, GRID_REGISTRATION_STATES.pinMismatch, site.endDeviceHref ?? null);
      options.log.warn({ siteId: row.id, deviceId: device.deviceId }, "grid: registration PIN differs; site not operated");
      options.onPinMismatch?.({ tenantId: row.tenantId, siteId: row.id, deviceId: device.deviceId, sn: device.sn });
      return;
    }
    refusedPin.delete(row.id);
    await repo.setRegistration(row.id, GRID_REGISTRATION_STATES.registered, site.endDeviceHref ?? null);
    sites.set(device.deviceId, site);
    await booted;
    schedules.ensure({ siteId: row.id, deviceId: device.deviceId, lfdi: row.lfdi, active: null, since: null });
    startSiteLoops(site);
  }

  function startSiteLoops(site: Site) {
    const signal = AbortSignal.any([stop.signal, site.stop.signal]);
    const id = site.row.id;
    let programsRate = DEFAULT_RATES.derpList;
    let assignmentsMs = DEFAULT_RATES.fsaList * 1000;
    // The program poll and the event timer both answer events: one at a time, or a response goes twice.
    let turn: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
      const result = turn.then(work, work);
      turn = result.catch(() => undefined);
      return result;
    };
    // The program poll waits for the assignments' first read instead of making its own: a second
    // read of the list at once is a poll the utility did not ask for (ALL-19 counts them).
    let firstAssignments: Promise<unknown> | undefined;
    loop(
      "assignments",
      signal,
      async () => {
        const read = pollAssignments(ctx, site);
        firstAssignments ??= read.catch(() => undefined);
        assignmentsMs = rateMs(await read, DEFAULT_RATES.fsaList);
        return assignmentsMs;
      },
      id,
    );
    loop(
      "programs",
      signal,
      async () => {
        if (site.programLists.length === 0) await firstAssignments;
        const rate = await exclusive(() => pollPrograms(ctx, site));
        programsRate = rate ?? programsRate;
        options.metrics.gridLastSuccess.set({ site: String(id) }, seconds(clock.now()));
        // No program assigned yet, so no list and no rate of its own: look again just after the
        // assignments' next read, so a program assigned then is read at once, not a period later.
        if (site.programLists.length === 0) return assignmentsMs + 50;
        return programsRate * 1000;
      },
      id,
    );
    site.settle = () => exclusive(() => settleEvents(ctx, site));
    loop(
      "events",
      signal,
      async () => {
        await site.settle?.();
        // Wake at the next start or end, at the latest after a program poll period.
        const next = await nextEventBoundary(ctx, site);
        return Math.min(next ?? Number.POSITIVE_INFINITY, programsRate * 1000) + 50;
      },
      id,
    );
    // Registration has just described the DER; the next description is due a DER list period later.
    loop(
      "der",
      signal,
      async () => {
        await writeConnectionPoint(ctx, site);
        return rateMs(await describeDer(ctx, site), DEFAULT_RATES.derList);
      },
      id,
      DEFAULT_RATES.derList * 1000,
    );
    loop(
      "mirror",
      signal,
      async () => {
        const postMs = (await syncMirrors(ctx, site, DEFAULT_RATES.post)) * 1000;
        // Readings cover whole intervals ending on multiples of postRate (minute boundaries for 60 s).
        const now = ctx.serverNow();
        const end = Math.floor(now / postMs) * postMs;
        await postReadings(ctx, site, end, postMs / 1000);
        return end + postMs - now + 50;
      },
      id,
    );
  }

  loop("discovery", stop.signal, discover);
  loop("endDevices", stop.signal, syncSites);

  return {
    sites: () => sites,
    async stop() {
      stop.abort();
      for (const site of sites.values()) site.stop.abort();
      ready?.();
      await Promise.allSettled([...running, schedules.closed()]);
      http.close();
      await Promise.all([exchanges.flush(), marks.flush()]);
    },
  };
}
