import type { ControlBase } from "@ess/domain";
import type { Action, UtilityControl } from "@ess/utility-sim";
import { expect, it } from "vitest";
import type { GridWorld } from "../grid-world.ts";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, SITE_SN, watts as smallestScale } from "./procedure-world.ts";

/**
 * The procedures' tagged controls: create-der-control in a given program (`tag` names it for the
 * response-contents checks) and those checks on the responses the utility received.
 */

/** Modes of create-der-control, W (connect as opModConnect). */
export interface Modes {
  expW?: number;
  impW?: number;
  genW?: number;
  loadW?: number;
  storageTargetW?: number;
  connect?: boolean;
  /** The power-of-ten multiplier to send the powers with (the procedures' pow_10_multipliers); default the smallest that fits. */
  pow10?: number;
}

export function controlBase(modes: Modes) {
  const watts = (value: number) =>
    modes.pow10 === undefined ? smallestScale(value) : { value: Math.round(value / 10 ** modes.pow10), multiplier: modes.pow10 };
  return {
    ...(modes.expW === undefined ? {} : { opModExpLimW: watts(modes.expW) }),
    ...(modes.impW === undefined ? {} : { opModImpLimW: watts(modes.impW) }),
    ...(modes.genW === undefined ? {} : { opModGenLimW: watts(modes.genW) }),
    ...(modes.loadW === undefined ? {} : { opModLoadLimW: watts(modes.loadW) }),
    ...(modes.storageTargetW === undefined ? {} : { opModStorageTargetW: watts(modes.storageTargetW) }),
    ...(modes.connect === undefined ? {} : { opModConnect: modes.connect }),
  };
}

export class TaggedControls {
  readonly mrids = new Map<string, string>();

  /** create-der-control in the `index`th program (0 = DERP 1), `startIn` seconds from now. */
  create(tag: string, index: number, seconds: number, modes: Modes, startIn = 0): Action {
    return ({ control }) => {
      const program = control.programs().sort((a, b) => a.id - b.id)[index];
      if (!program) throw new Error(`no program ${index + 1} to hold ${tag}`);
      const created = control.createControl({
        programId: program.id,
        start: control.now() + startIn,
        duration: seconds,
        base: controlBase(modes),
      });
      this.mrids.set(tag, created.mRID);
    };
  }

  /** response-contents with `latest`: the response just posted has this status and subject. */
  latest(status: number, tag: string) {
    return (c: UtilityControl) => {
      const last = c.responses().at(-1)?.response;
      return last?.status === status && last.subject === this.mrids.get(tag);
    };
  }

  /** The statuses the utility received for the tagged control, in order. */
  statuses(control: UtilityControl, tag: string): (number | undefined)[] {
    const mrid = this.mrids.get(tag);
    return control
      .responses()
      .filter((r) => r.response.subject === mrid)
      .map((r) => r.response.status);
  }
}

/**
 * What the console commanded the site's device at server time `atMs` (the effective-control hook):
 * the procedures leave "the device should ramp to…" to an operator; the tests check the command.
 */
export function commandedAt(world: GridWorld, atMs: number): ControlBase | null {
  const before = world.effective.filter((e) => e.at <= atMs).at(-1);
  return before?.active?.control ?? null;
}

/**
 * The moment to read what a step left commanded, when the next step makes a control: that control
 * starts on the whole second it was made in (2030.5 times are seconds), which may be before the
 * step ended if the next poll fell in the same second. So: the step's end or just before that
 * second, whichever is earlier.
 */
export const beforeNextControl = (stepAt: number, nextStepAt: number): number =>
  Math.min(stepAt, Math.floor(nextStepAt / 1000) * 1000 - 1);

/** A scaled power in W. */
export const w = (value: { value: number; multiplier: number } | undefined) =>
  value === undefined ? undefined : value.value * 10 ** value.multiplier;

/**
 * The two checks every control procedure starts with: the site registered with its DER settings
 * at the rating (end-device-contents, der-settings-contents), and every step completed.
 */
export function registeredAndCompleted(world: () => ProcedureWorld, steps: string[], maxW: number): void {
  it("end-device-contents and der-settings-contents (preconditions)", () => {
    const p = world();
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
    expect(w(device.der.settings?.setMaxW)).toBe(maxW);
  });

  it("completes every step", () => {
    allStepsComplete(world().run, steps);
  });
}
