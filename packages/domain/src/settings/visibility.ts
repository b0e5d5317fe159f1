import type { Audience, Register } from "../catalogue/types.ts";

export interface Rights {
  view: boolean;
  set: boolean;
}

/**
 * What an audience may do with a register: the administrators' override where there is one, else
 * the catalogue's default. Nobody may set a register the device does not take (read-only input
 * registers), and setting implies viewing.
 */
export function effectiveRights(register: Register, audience: Audience, override?: Rights): Rights {
  const base = override ?? { view: register.view[audience], set: register.set[audience] };
  const set = base.set && register.access === "readWrite";
  return { view: base.view || set, set };
}
