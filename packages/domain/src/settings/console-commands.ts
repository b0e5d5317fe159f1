/**
 * Commands the console carries out itself, never sent to a device, recorded among the device's
 * commands (a change record that is acknowledged at once). Their codes stay clear of the device
 * command enumeration of spec §4 (0–11).
 */
export const CONSOLE_COMMANDS = {
  /** Profit (revenue) counts again from now: daily, monthly, yearly and total (spec §5). */
  clearProfit: 100,
} as const;
