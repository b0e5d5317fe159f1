/**
 * The highest fixed rate something keeps up with. Starts at `start`, climbs by a quarter while
 * each rate is kept up with and steps down by 30 % while it is not, and stops at the first miss
 * after a success; `steps` rates at most. The figure is what the publishers did publish at the
 * best rate kept, since on a loaded machine they can fall short of the rate asked.
 */
export interface LadderStep {
  kept: boolean;
  /** Frames per second the publishers had acknowledged at this rate. */
  published: number;
}

export async function highestKept<S extends LadderStep>(
  start: number,
  steps: number,
  measure: (rate: number) => Promise<S>,
): Promise<(S & { offered: number }) | null> {
  let best: (S & { offered: number }) | null = null;
  let offered = start;
  for (let step = 0; step < steps; step++) {
    const r = await measure(offered);
    if (r.kept && r.published > (best?.offered ?? 0)) best = { ...r, offered: r.published };
    if (!r.kept && best) break;
    offered = Math.max(250, Math.round((r.kept ? offered * 1.25 : offered * 0.7) / 250) * 250);
  }
  return best;
}
