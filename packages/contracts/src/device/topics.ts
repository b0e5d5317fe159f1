/**
 * Topics of the device protocol (docs/device-protocol.md). Every topic of one device lives under
 * `ess/v1/{sn}/`; a device may publish and subscribe only there. `v1` is the topic layout's
 * version; payload formats carry their own version.
 */
export const TOPIC_ROOT = "ess/v1";

/** Serial numbers: letters, digits, `-` and `_`, up to 64 characters. */
export const SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Leaves a device publishes to. */
export const DEVICE_LEAVES = {
  /** Retained `online` / `offline` (the last will). */
  status: "status",
  /** Periodic telemetry: a binary frame of kind `telemetry`. */
  telemetry: "telemetry",
  /** The answer to a page read: a binary frame of kind `page`. */
  page: "page",
  /** Acknowledgement of a setting write or a command (JSON). */
  ack: "ack",
  /** Progress of a firmware upgrade (JSON). */
  ota: "ota",
  /** An alarm that occurs or disappears (JSON). */
  alarm: "alarm",
} as const;
export type DeviceLeaf = (typeof DEVICE_LEAVES)[keyof typeof DEVICE_LEAVES];

/** Leaves the console publishes to (below `cmd/`); a device subscribes to `ess/v1/{sn}/cmd/#`. */
export const CONSOLE_LEAVES = {
  read: "cmd/read",
  write: "cmd/write",
  command: "cmd/command",
  ota: "cmd/ota",
} as const;
export type ConsoleLeaf = (typeof CONSOLE_LEAVES)[keyof typeof CONSOLE_LEAVES];

export const deviceTopic = (sn: string, leaf: DeviceLeaf | ConsoleLeaf | "cmd/#") => `${TOPIC_ROOT}/${sn}/${leaf}`;

/** Subscription filter for one device leaf of every device (the console's side). */
export const everyDevice = (leaf: DeviceLeaf) => `${TOPIC_ROOT}/+/${leaf}`;

/** Serial number and leaf of a device topic, or null when the topic is not one. */
export function parseDeviceTopic(topic: string): { sn: string; leaf: string } | null {
  if (!topic.startsWith(`${TOPIC_ROOT}/`)) return null;
  const rest = topic.slice(TOPIC_ROOT.length + 1);
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  const sn = rest.slice(0, slash);
  return SERIAL_PATTERN.test(sn) ? { sn, leaf: rest.slice(slash + 1) } : null;
}

/** True when `topic` (or a subscription filter) stays inside the device's own subtree. */
export function isOwnTopic(sn: string, topic: string): boolean {
  const prefix = `${TOPIC_ROOT}/${sn}/`;
  return topic.startsWith(prefix) && topic.length > prefix.length && !topic.slice(prefix.length).includes("#/");
}
