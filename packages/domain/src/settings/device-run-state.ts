/**
 * What the system run state of a device's latest reading (`systemStateFilter`, spec §4: 0 none,
 * 1–4 off-grid, 5–7 and 2 grid-tied, 8 standby, 9 starting, 10 shutdown) means for remote changes.
 */

/** Run states in which the inverter is connected to the grid (generator cannot be switched on). */
export const GRID_CONNECTED_STATES: readonly number[] = [2, 5, 6, 7];
/** Run states in which settings may be applied (spec §4: standby or shut down). */
export const SETTINGS_STATES: readonly number[] = [8, 10];

/** Run state 10: shut down (switched off by a command or at the device). */
export const SHUTDOWN_STATE = 10;

/** Whether a reading's run state says the grid is connected; no reading counts as not connected. */
export const isGridConnected = (state: number | null | undefined) =>
  typeof state === "number" && GRID_CONNECTED_STATES.includes(state);

/**
 * Whether a reading's run state says the device is running (so it takes no standby-only setting).
 * No reading, or state 0 (none), is not taken as running: the device itself still refuses.
 */
export const isRunning = (state: number | null | undefined) =>
  typeof state === "number" && state !== 0 && !SETTINGS_STATES.includes(state);
