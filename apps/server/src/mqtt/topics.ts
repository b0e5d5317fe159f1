/**
 * Device topics live under `ess/v1/{sn}/…` (see docs/device-protocol.md). A device may publish
 * and subscribe only below its own serial number.
 */
export const TOPIC_ROOT = "ess/v1";

export const deviceTopic = (sn: string, leaf: string) => `${TOPIC_ROOT}/${sn}/${leaf}`;

/** The serial number a topic belongs to, or null when it is not a device topic. */
export function topicSerial(topic: string): string | null {
  const parts = topic.split("/");
  if (parts.length < 4 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return null;
  const sn = parts[2] ?? "";
  return /^[A-Za-z0-9_-]{1,64}$/.test(sn) ? sn : null;
}

/** True when `topic` (or a subscription filter) stays inside the device's own subtree. */
export function isOwnTopic(sn: string, topic: string): boolean {
  const prefix = `${TOPIC_ROOT}/${sn}/`;
  return topic.startsWith(prefix) && !topic.slice(prefix.length).includes("#/") && topic.length > prefix.length;
}
