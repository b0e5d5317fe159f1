/** Device topics are part of the protocol contract (docs/device-protocol.md). */
export { deviceTopic, everyDevice, isOwnTopic, parseDeviceTopic, TOPIC_ROOT } from "@ess/contracts";

import { parseDeviceTopic } from "@ess/contracts";

/** The serial number a topic belongs to, or null when it is not a device topic. */
export function topicSerial(topic: string): string | null {
  return parseDeviceTopic(topic)?.sn ?? null;
}
