/**
 * A device's clock is a claim, not a fact. Readings and alarm events dated further ahead of the
 * console's clock than this are refused (the device's clock is wrong); times within it are taken
 * as the device states them, but never as later than the moment the console received them.
 */
export const DEVICE_CLOCK_AHEAD_MAX_MS = 10 * 60_000;

/** A device time as the console may believe it: no later than when the message arrived. */
export const believedDeviceTime = (deviceTs: number, receivedAt: number): number => Math.min(deviceTs, receivedAt);
