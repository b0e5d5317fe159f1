import { type DeviceLeaf, everyDevice, parseDeviceTopic } from "@ess/contracts";
import type { MqttBus } from "./bus.ts";
import type { DeviceInbox } from "./embedded-broker.ts";

/** Handles what device `sn` published on one leaf; a returned promise delays its acknowledgement. */
export type LeafHandler = (sn: string, payload: Buffer) => Promise<void> | undefined;

/**
 * Routes device publications to their handlers by leaf, whichever way they arrive: straight from
 * the embedded broker (before the device's PUBACK) or through the server's subscriptions on an
 * external broker. Until `open()`, publications wait, so nothing arriving during start-up is
 * acknowledged before a handler has it.
 */
export function createDeviceRouter(options: { onMessage?: (leaf: string) => void } = {}) {
  const handlers = new Map<string, { handler: LeafHandler; shared: boolean }>();
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let isOpen = false;

  const deliver = (sn: string, leaf: string, payload: Buffer): Promise<void> | undefined => {
    options.onMessage?.(leaf);
    return handlers.get(leaf)?.handler(sn, payload);
  };

  const inbox: DeviceInbox = (sn, topic, payload) => {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || parsed.sn !== sn) return null;
    if (isOpen) return deliver(sn, parsed.leaf, payload) ?? null;
    return opened.then(() => deliver(sn, parsed.leaf, payload));
  };

  return {
    inbox,
    /** `shared: false` for replies that only the asking process can match (page answers, acks). */
    on(leaf: DeviceLeaf, handler: LeafHandler, opts: { shared?: boolean } = {}) {
      handlers.set(leaf, { handler, shared: opts.shared ?? true });
    },
    open() {
      isOpen = true;
      open();
    },
    /** Subscribes the server to every registered leaf of every device on an external broker. */
    async attach(bus: MqttBus) {
      for (const [leaf, { shared }] of handlers) {
        await bus.subscribe(
          everyDevice(leaf as DeviceLeaf),
          (topic, payload) => {
            const parsed = parseDeviceTopic(topic);
            return parsed ? deliver(parsed.sn, parsed.leaf, payload) : undefined;
          },
          { shared },
        );
      }
    },
  };
}

export type DeviceRouter = ReturnType<typeof createDeviceRouter>;
