import {
  type Action,
  type CommsRates,
  DEFAULT_PIN,
  type Procedure,
  type ProcedureRun,
  runProcedure,
  type UtilityControl,
} from "@ess/utility-sim";
import { type GridWorld, NMIS, type SiteSpec, startGridWorld } from "../grid-world.ts";

/**
 * One site (the procedures' EndDevice 1) and the console's grid client against the utility test
 * server, with a procedure's preconditions applied and its steps followed from the client's very
 * first request (the procedures' `immediate_start`).
 */

export const SITE_SN = "PROCSITE1";
export const SITE_NMI = NMIS[0];

/** set-comms-rate with every rate at 60 s, as each procedure's init actions start. */
export const RATES_60: Partial<CommsRates> = {
  dcapPoll: 60,
  edevListPoll: 60,
  fsaListPoll: 60,
  derListPoll: 60,
  derpListPoll: 60,
  mupPost: 60,
};

/** W as a scaled value: an Int16 and the smallest power-of-ten multiplier that fits. */
export function watts(value: number) {
  let multiplier = 0;
  while (Math.abs(value / 10 ** multiplier) > 32_767) multiplier++;
  return { value: Math.round(value / 10 ** multiplier), multiplier };
}

/** create-der-program (primacy 0) and set-default-der-control with these limits and setGradW 27. */
export function programWithDefault(limits: { impW: number; expW: number }): Action {
  return ({ control }) => {
    const program = control.createProgram({ primacy: 0 });
    control.setDefaultControl(program.id, {
      DERControlBase: { opModImpLimW: watts(limits.impW), opModExpLimW: watts(limits.expW) },
      setGradW: 27,
    });
  };
}

/**
 * set-default-der-control during a procedure: changes only the fields given (as the published
 * action does) of the default control of the `index`th program (0 = DERP 1), a new version.
 */
export function updateDefault(index: number, change: { impW?: number; expW?: number; genW?: number; setGradW?: number }): Action {
  return ({ control }) => {
    const program = control.programs()[index];
    if (!program) throw new Error(`no program ${index + 1}`);
    const { mRID: _m, version: _v, ...previous } = program.defaultControl ?? { DERControlBase: {} };
    const base = { ...previous.DERControlBase };
    if (change.impW !== undefined) base.opModImpLimW = watts(change.impW);
    if (change.expW !== undefined) base.opModExpLimW = watts(change.expW);
    if (change.genW !== undefined) base.opModGenLimW = watts(change.genW);
    control.setDefaultControl(program.id, {
      ...previous,
      DERControlBase: base,
      ...(change.setGradW === undefined ? {} : { setGradW: change.setGradW }),
    });
  };
}

/** set-comms-rate during a procedure. */
export function setRates(rates: Partial<CommsRates>): Action {
  return ({ control }) => void control.setRates(rates);
}

/** create-der-control starting now in the first program, for `seconds`, with import/export limits. */
export function controlNow(seconds: number, limits: { impW: number; expW: number }): Action {
  return ({ control }) => {
    const program = control.programs()[0];
    if (!program) throw new Error("no program to hold the control");
    control.createControl({
      programId: program.id,
      start: control.now(),
      duration: seconds,
      base: { opModImpLimW: watts(limits.impW), opModExpLimW: watts(limits.expW) },
    });
  };
}

export interface ProcedureWorld {
  world: GridWorld;
  run: ProcedureRun;
  control: UtilityControl;
  lfdi: string;
}

export async function runProcedureWorld(options: {
  procedure: Procedure;
  /** Preconditions, applied before the client's first request. */
  preconditions: Action[];
  rates?: Partial<CommsRates>;
  factor?: number;
  site?: Partial<SiteSpec>;
  /** Further sites of the aggregator, registered beside the first (P-01's second EndDevice). */
  moreSites?: SiteSpec[];
  defaultPin?: string;
  /** Real milliseconds the steps may take. */
  timeoutMs?: number;
  /** Runs once the world is up, while the steps are followed (telemetry for the readings). */
  during?: (world: GridWorld) => Promise<void>;
}): Promise<ProcedureWorld> {
  let running: Promise<ProcedureRun> | undefined;
  const world = await startGridWorld({
    factor: options.factor ?? 60,
    sites: [{ sn: SITE_SN, nmi: SITE_NMI, ...options.site }, ...(options.moreSites ?? [])],
    rates: options.rates ?? RATES_60,
    defaultPin: options.defaultPin ?? String(DEFAULT_PIN),
    beforeClient: (sim) => {
      for (const action of options.preconditions) action({ control: sim.control });
      running = runProcedure(sim.control, options.procedure, options.timeoutMs ?? 20_000);
    },
  });
  try {
    await options.during?.(world);
    const run = await (running as Promise<ProcedureRun>);
    return { world, run, control: world.sim.control, lfdi: world.siteLfdi(SITE_SN) };
  } catch (error) {
    await world.close();
    throw error;
  }
}

/** Requests of the site's EndDevice and of the discovery resources, in order. */
export function siteRequests(world: GridWorld) {
  return world.sim.control.requests({ lfdi: world.aggregatorLfdi });
}

/**
 * Telemetry every 10 s from ten minutes before now to `minutes` after (server time): 1 kW and 300 var
 * import, 3 kW and 200 var from the inverter, 240 V.
 */
export async function telemetry(world: GridWorld, minutes: number): Promise<void> {
  const now = world.clock.now();
  for (let t = now - 600_000; t < now + minutes * 60_000; t += 10_000)
    await world.sample(SITE_SN, t, { grid: 1000, gridVar: 300, inverter: 3000, inverterVar: 200, voltage: 240, soc: 50 });
}
