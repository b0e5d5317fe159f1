import type { Queryable } from "../../db/db.ts";
import type { ResubscribeReason } from "../../mqtt/bus.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { Log } from "./log.ts";

/** A stall starting (`stalled`) or ending because devices' messages arrive again (`resumed`). */
export interface IngestEvent {
  kind: "stalled" | "resumed";
  /** How long this process had heard nothing from devices when the stall was found. */
  silentS: number;
  /** Devices online at that moment, by tenant. */
  onlineByTenant: Map<number, number>;
}

export interface IngestWatchdog {
  /** A device's own report arrived (through a shared subscription, not a retained replay). */
  heard(): void;
  /** The bus connected again and sent its subscriptions: silence is counted from now. */
  reconnected(): void;
  /** Whether a stall is going on (the health route reports ingest as degraded meanwhile). */
  stalled(): boolean;
  /**
   * While a stall lasts: when the console subscribed again. Presence counts a device's silence
   * from then at the earliest (see presence.ts), so that a stall that re-subscribing does not cure
   * still ends, with the devices taken for silent, instead of holding them online for good.
   */
  resubscribedAt(): Date | null;
  check(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Notices a broker that is connected but delivers nothing: no device message reached this
 * process for `stallMs` while the database says devices are online (presence, written by every
 * process — so an idle or empty fleet never counts as a stall). Then it counts the stall, tells
 * `onEvent` (administrators get a reminder), and subscribes again — every `stallMs` until
 * messages arrive, which ends the stall. A broker that lost the console's subscriptions while
 * keeping its session (Mosquitto restores no shared subscription) is healed this way.
 */
export function createIngestWatchdog(
  deps: {
    db: Queryable;
    bus: { isConnected(): boolean; resubscribe(reason: ResubscribeReason): Promise<void> };
    metrics: Metrics;
    log: Log;
    onEvent?: (event: IngestEvent) => void;
  },
  options: { stallMs: number; checkMs?: number },
): IngestWatchdog {
  const started = Date.now();
  let lastHeard = started;
  // Silence is measured from the latest of: a message, a reconnection, a re-subscription.
  let quietSince = started;
  let stall: { silentS: number; onlineByTenant: Map<number, number>; resubscribedAt: Date | null } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let checking = false;

  const onlineByTenant = async () => {
    const { rows } = await deps.db.query<{ tenant_id: number; n: number }>(
      "SELECT tenant_id, count(*)::int AS n FROM device WHERE deleted_at IS NULL AND online_status <> 0 GROUP BY tenant_id",
    );
    return new Map(rows.map((r) => [r.tenant_id, r.n]));
  };

  // Reminders go out from the message path too: a failure there must not reach the MQTT client.
  const tell = (event: IngestEvent) => {
    try {
      deps.onEvent?.(event);
    } catch (error) {
      deps.log.error({ err: error }, "ingest watchdog: reminder not sent");
    }
  };

  const end = (kind: "resumed" | null) => {
    const ended = stall;
    if (!ended) return;
    stall = null;
    deps.metrics.ingestStalled.set(0);
    if (kind) {
      deps.log.info({ silentS: ended.silentS }, "device messages arrive again");
      tell({ kind, silentS: ended.silentS, onlineByTenant: ended.onlineByTenant });
    } else deps.log.info({ silentS: ended.silentS }, "stall over: no device is online any more");
  };

  async function check(): Promise<void> {
    if (checking) return;
    checking = true;
    try {
      const now = Date.now();
      deps.metrics.ingestSilence.set((now - lastHeard) / 1000);
      if (!deps.bus.isConnected() || now - quietSince < options.stallMs) return;
      const online = await onlineByTenant();
      const total = [...online.values()].reduce((a, b) => a + b, 0);
      if (total === 0) {
        // An idle fleet: ask again one stall period from now, not at every check.
        quietSince = now;
        return end(null);
      }
      if (!stall) {
        stall = { silentS: Math.round((now - lastHeard) / 1000), onlineByTenant: online, resubscribedAt: null };
        deps.metrics.ingestStalls.inc();
        deps.metrics.ingestStalled.set(1);
        deps.log.warn(
          { silentS: stall.silentS, online: total },
          "the broker delivers no device message while devices are online; subscribing again",
        );
        tell({ kind: "stalled", silentS: stall.silentS, onlineByTenant: online });
      }
      quietSince = Date.now();
      await deps.bus.resubscribe("silence");
      if (stall && !stall.resubscribedAt) stall.resubscribedAt = new Date();
    } catch (error) {
      deps.log.error({ err: error }, "ingest watchdog: check failed");
    } finally {
      checking = false;
    }
  }

  return {
    heard() {
      lastHeard = Date.now();
      quietSince = lastHeard;
      if (stall) end("resumed");
    },
    reconnected() {
      quietSince = Math.max(quietSince, Date.now());
    },
    stalled: () => stall !== null,
    resubscribedAt: () => stall?.resubscribedAt ?? null,
    check,
    start() {
      timer = setInterval(() => void check(), options.checkMs ?? Math.min(5000, Math.max(100, options.stallMs / 4)));
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
