import type { UtilityControl } from "./control.ts";
import type { RequestLogEntry, RequestPhase } from "./request-log.ts";

/**
 * A small step engine shaped like the published CSIP-AUS client test procedures: named steps, some
 * enabled at the start, each waiting for one event (a request the utility server receives, or a
 * wait of server seconds) and then running its actions (change the server, enable other steps,
 * finish). Waits run on the compressed clock, so a 600 s wait takes 600 / factor real seconds.
 * The checks of a procedure are made by the test once `run` has resolved.
 */

export type StepEvent =
  | {
      kind: "request";
      method: string;
      /** A path, `*` standing for one segment (`/edev/*\/der`). */
      endpoint: string;
      /** "received": before it is served, so actions change what the client gets (the default). */
      phase?: RequestPhase;
      /**
       * The event's own checks (the procedures' `checks` under an event): the step completes only
       * on a request for which this holds, e.g. the response just posted says "started".
       */
      check?: (control: UtilityControl, request: Readonly<RequestLogEntry>) => boolean;
    }
  | { kind: "wait"; seconds: number };

export interface StepContext {
  control: UtilityControl;
  /** The request that fired the step, if a request did. */
  request?: Readonly<RequestLogEntry>;
}

export type Action = (context: StepContext) => void;

export interface Step {
  event: StepEvent;
  /** Run in order when the event happens; the step is removed after. */
  actions?: Action[];
  /** Steps this one enables. */
  enables?: string[];
  /** Ends the procedure (like `finish-test`). */
  finish?: boolean;
}

export interface StepRecord {
  step: string;
  /** Server time (ms) the step completed. */
  at: number;
  request?: Readonly<RequestLogEntry>;
}

export interface Procedure {
  /** Steps enabled at the start. */
  start: string[];
  steps: Record<string, Step>;
}

export interface ProcedureRun {
  /** Steps in the order they completed. */
  completed: StepRecord[];
  /** Steps still enabled when the procedure ended (all-steps-complete fails when any). */
  pending: string[];
  /** Server time (ms) the run began. */
  startedAt: number;
}

const GET = "GET";

type RequestCheck = NonNullable<Extract<StepEvent, { kind: "request" }>["check"]>;

export const on = {
  get: (endpoint: string): StepEvent => ({ kind: "request", method: GET, endpoint }),
  /** A GET once served (`serve_request_first`): its actions change what the client sees next time. */
  getServed: (endpoint: string): StepEvent => ({ kind: "request", method: GET, endpoint, phase: "served" }),
  post: (endpoint: string): StepEvent => ({ kind: "request", method: "POST", endpoint }),
  /** A POST once served (the procedures' `serve_request_first`), completing the step only when `check` holds. */
  postServed: (endpoint: string, check: RequestCheck): StepEvent => ({
    kind: "request",
    method: "POST",
    endpoint,
    phase: "served",
    check,
  }),
  put: (endpoint: string): StepEvent => ({ kind: "request", method: "PUT", endpoint }),
  /** A PUT once served, completing the step only when `check` holds (e.g. der-settings-contents on what it wrote). */
  putServed: (endpoint: string, check: RequestCheck): StepEvent => ({
    kind: "request",
    method: "PUT",
    endpoint,
    phase: "served",
    check,
  }),
  wait: (seconds: number): StepEvent => ({ kind: "wait", seconds }),
};

export function endpointMatches(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((segment, i) => segment === "*" || segment === got[i]);
}

/**
 * Follows the procedure from now until a `finish` step ran or no step is left enabled, or rejects
 * after `timeoutMs` real milliseconds naming the steps still waiting.
 */
export function runProcedure(control: UtilityControl, procedure: Procedure, timeoutMs: number): Promise<ProcedureRun> {
  const enabled = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();
  const completed: StepRecord[] = [];
  const startedAt = control.clock.now();
  let settle: (run: ProcedureRun) => void = () => {};
  let fail: (error: Error) => void = () => {};
  let ended = false;

  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearTimeout(deadline);
    for (const timer of timers.values()) clearTimeout(timer);
    settle({ completed, pending: [...enabled], startedAt });
  };

  const complete = (name: string, request?: Readonly<RequestLogEntry>) => {
    const step = procedure.steps[name] as Step;
    enabled.delete(name);
    completed.push({ step: name, at: control.clock.now(), request });
    for (const action of step.actions ?? []) action({ control, request });
    for (const next of step.enables ?? []) enable(next);
    if (step.finish || enabled.size === 0) end();
  };

  const enable = (name: string) => {
    const step = procedure.steps[name];
    if (!step) throw new RangeError(`No step ${name}`);
    enabled.add(name);
    if (step.event.kind === "wait") {
      const realMs = (step.event.seconds * 1000) / control.clock.factor;
      timers.set(
        name,
        setTimeout(() => {
          if (!ended && enabled.has(name)) complete(name);
        }, realMs),
      );
    }
  };

  const unsubscribe = control.onRequest((entry, phase) => {
    if (ended) return;
    // One request completes at most one step, the first enabled in the procedure's order.
    for (const name of Object.keys(procedure.steps)) {
      if (!enabled.has(name)) continue;
      const event = (procedure.steps[name] as Step).event;
      if (event.kind !== "request" || event.method !== entry.method) continue;
      if ((event.phase ?? "received") !== phase || !endpointMatches(event.endpoint, entry.path)) continue;
      if (event.check && !event.check(control, entry)) continue;
      complete(name, entry);
      return;
    }
  });

  const deadline = setTimeout(() => {
    if (ended) return;
    ended = true;
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    fail(new Error(`procedure timed out; waiting for ${[...enabled].join(", ")}`));
  }, timeoutMs);

  return new Promise<ProcedureRun>((resolve, reject) => {
    settle = resolve;
    fail = reject;
    for (const name of procedure.start) enable(name);
  });
}
