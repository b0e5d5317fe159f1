import {
  CONSOLE_LEAVES,
  type DeviceAck,
  decodeFrame,
  decodeValues,
  deviceAck,
  deviceTopic,
  FrameError,
  type RegisterValue,
} from "@ess/contracts";
import type { MqttBus } from "../../mqtt/bus.ts";
import type { DeviceRouter } from "../../mqtt/device-router.ts";
import type { Log } from "./log.ts";

export class DeviceTimeoutError extends Error {}
/** The server stopped before the device answered: the outcome is for whoever receives the answer (or the deadline) to tell. */
export class RequestsStoppedError extends DeviceTimeoutError {}

export interface PageAnswer {
  page: number;
  /** Device time of the answer, ms since the epoch. */
  ts: number;
  values: Record<string, RegisterValue | null>;
  invalid: string[];
}

interface Waiter<T> {
  sn: string;
  resolve(value: T): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Told of acknowledgements no waiter of this process matched (asked by another process, or answered late). */
export type UnmatchedAckHandler = (sn: string, ack: DeviceAck) => Promise<void>;

/**
 * Requests to devices that expect an answer: page reads (answered by a `page` frame) and setting
 * writes and commands (answered on `ack`). Answers are matched by request id and serial number;
 * they come unshared to every server process, and only the one that asked has a waiter. Writes and
 * commands carry the request id of their durable record, so an acknowledgement no waiter here
 * matches still reaches the record (`onUnmatchedAck`), before the device's message is acknowledged.
 */
export function createDeviceRequests(deps: { bus: MqttBus; router: DeviceRouter; log: Log; timeoutMs: number }) {
  let nextId = 1 + Math.floor(Math.random() * 0x7fff0000);
  const pages = new Map<number, Waiter<PageAnswer>>();
  const acks = new Map<number, Waiter<DeviceAck>>();
  let unmatched: UnmatchedAckHandler | null = null;

  const take = <T>(map: Map<number, Waiter<T>>, id: number, sn: string): Waiter<T> | undefined => {
    const w = map.get(id);
    if (!w || w.sn !== sn) return undefined;
    map.delete(id);
    clearTimeout(w.timer);
    return w;
  };

  deps.router.on(
    "page",
    (sn, payload) => {
      try {
        const frame = decodeFrame(payload);
        if (frame.header.kind !== "page") return;
        const w = take(pages, frame.header.requestId, sn);
        w?.resolve({ page: frame.header.page, ts: frame.header.ts, ...decodeValues(frame) });
      } catch (error) {
        if (error instanceof FrameError) deps.log.warn({ sn, reason: error.message }, "page answer refused");
        else throw error;
      }
      return undefined;
    },
    { shared: false },
  );
  deps.router.on(
    "ack",
    (sn, payload) => {
      let parsed: ReturnType<typeof deviceAck.safeParse>;
      try {
        parsed = deviceAck.safeParse(JSON.parse(payload.toString("utf8")));
      } catch {
        parsed = { success: false } as ReturnType<typeof deviceAck.safeParse>;
      }
      if (!parsed.success) {
        deps.log.warn({ sn }, "device acknowledgement refused: not a valid ack");
        return undefined;
      }
      const waiter = take(acks, parsed.data.id, sn);
      if (waiter) waiter.resolve(parsed.data);
      else if (unmatched) return unmatched(sn, parsed.data);
      return undefined;
    },
    { shared: false },
  );

  function ask<T>(
    map: Map<number, Waiter<T>>,
    sn: string,
    leaf: string,
    body: Record<string, unknown>,
    timeoutMs: number,
    requestId?: number,
  ) {
    const id = requestId ?? nextId;
    if (requestId === undefined) nextId = nextId >= 0xfffffffe ? 1 : nextId + 1;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        map.delete(id);
        reject(new DeviceTimeoutError(`device ${sn} did not answer request ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      map.set(id, { sn, resolve, reject, timer });
      deps.bus.publish(`${deviceTopic(sn, leaf as never)}`, JSON.stringify({ v: 1, id, ...body }), { qos: 1 }).catch((error) => {
        clearTimeout(timer);
        map.delete(id);
        reject(error);
      });
    });
  }

  return {
    /** How long a request waits for its answer unless told otherwise. */
    timeoutMs: deps.timeoutMs,
    /** Asks device `sn` for live page `page`; rejects with DeviceTimeoutError when it stays silent. */
    readPage: (sn: string, page: number, timeoutMs = deps.timeoutMs) => ask(pages, sn, CONSOLE_LEAVES.read, { page }, timeoutMs),
    /** Writes registers (raw words) under the record's request id; resolves with the device's acknowledgement, refusal included. */
    write: (sn: string, values: { key: string; raw: number | string }[], timeoutMs = deps.timeoutMs, requestId?: number) =>
      ask(acks, sn, CONSOLE_LEAVES.write, { values }, timeoutMs, requestId),
    /** Sends a command (deviceCommand code) under the record's request id; resolves with the device's acknowledgement. */
    command: (sn: string, command: number, timeoutMs = deps.timeoutMs, requestId?: number) =>
      ask(acks, sn, CONSOLE_LEAVES.command, { command }, timeoutMs, requestId),
    /** Where acknowledgements that no waiter of this process matched go (the device writer). */
    onUnmatchedAck(handler: UnmatchedAckHandler | null) {
      unmatched = handler;
    },
    stop() {
      for (const map of [pages, acks] as Map<number, Waiter<unknown>>[]) {
        for (const w of map.values()) {
          clearTimeout(w.timer);
          w.reject(new RequestsStoppedError("the server is stopping"));
        }
        map.clear();
      }
    },
  };
}

export type DeviceRequests = ReturnType<typeof createDeviceRequests>;
