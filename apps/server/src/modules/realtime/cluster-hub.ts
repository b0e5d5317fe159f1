import type { ClusterBus } from "../../cluster/bus.ts";
import type { RealtimeHub } from "./realtime-hub.ts";

/** The destinations one process has subscribers for; `ask`: answer with yours. */
interface Watched {
  o: string;
  d: string[];
  ask?: boolean;
}
interface Change {
  o: string;
  d: string;
  on: boolean;
}
interface Push {
  d: string;
  p: unknown;
}

/** Processes announce all they watch this often; one not heard for `FORGET_AFTER` is taken for gone. */
const REFRESH_MS = 60_000;
const FORGET_AFTER = 2.5 * REFRESH_MS;

/**
 * The hub of one process in a console of several: a push published here reaches the subscribers of
 * every process. Each process announces the destinations it has subscribers for (when one gains its
 * first or loses its last, all of them once a minute, and when another process asks), so a push
 * goes out only to the processes that watch it, and `subscriberCount` counts theirs too: live
 * device data is built only for devices someone watches somewhere.
 *
 * `subscribed` stays this process's own: pushes addressed by subscriber (alarm and health
 * reminders) are decided in each process from events relayed to all of them.
 */
export function clusterHub(hub: RealtimeHub, bus: ClusterBus, options: { refreshMs?: number } = {}) {
  const refreshMs = options.refreshMs ?? REFRESH_MS;
  const byDestination = new Map<string, Set<string>>();
  const byOrigin = new Map<string, { destinations: Set<string>; heard: number }>();

  const unwatch = (origin: string, destination: string) => {
    const set = byDestination.get(destination);
    set?.delete(origin);
    if (set?.size === 0) byDestination.delete(destination);
  };
  const entry = (origin: string) => {
    let e = byOrigin.get(origin);
    if (!e) {
      e = { destinations: new Set(), heard: 0 };
      byOrigin.set(origin, e);
    }
    e.heard = Date.now();
    return e;
  };
  const forget = (origin: string) => {
    for (const d of byOrigin.get(origin)?.destinations ?? []) unwatch(origin, d);
    byOrigin.delete(origin);
  };

  const push = bus.broadcast<Push, number>("realtime.push", (m) => hub.publish(m.d, m.p));
  const change = bus.broadcast<Change>("realtime.watch", (m) => {
    if (m.o === bus.origin) return;
    const e = entry(m.o);
    if (m.on) {
      e.destinations.add(m.d);
      const set = byDestination.get(m.d) ?? new Set<string>();
      byDestination.set(m.d, set.add(m.o));
    } else {
      e.destinations.delete(m.d);
      unwatch(m.o, m.d);
    }
  });
  const announce: (m: Watched) => void = bus.broadcast<Watched>("realtime.watched", (m) => {
    if (m.o === bus.origin) return;
    forget(m.o);
    if (m.d.length > 0) {
      const e = entry(m.o);
      for (const d of m.d) {
        e.destinations.add(d);
        const set = byDestination.get(d) ?? new Set<string>();
        byDestination.set(d, set.add(m.o));
      }
    }
    if (m.ask) announce({ o: bus.origin, d: hub.destinations() });
  });

  hub.observe((destination, on) => change({ o: bus.origin, d: destination, on }));
  // A process that starts, or that may have missed announcements, asks the others for theirs.
  announce({ o: bus.origin, d: hub.destinations(), ask: true });
  bus.onGap(() => announce({ o: bus.origin, d: hub.destinations(), ask: true }));
  const refresh = setInterval(() => {
    const stale = Date.now() - refreshMs * (FORGET_AFTER / REFRESH_MS);
    for (const [origin, e] of byOrigin) if (e.heard < stale) forget(origin);
    announce({ o: bus.origin, d: hub.destinations() });
  }, refreshMs);
  refresh.unref();

  const wrapped: RealtimeHub = {
    ...hub,
    publish(destination, payload) {
      const others = byDestination.get(destination)?.size ?? 0;
      return others > 0 ? push({ d: destination, p: payload }) + others : hub.publish(destination, payload);
    },
    subscriberCount(destination) {
      if (destination === undefined) return hub.subscriberCount();
      return hub.subscriberCount(destination) + (byDestination.get(destination)?.size ?? 0);
    },
  };
  return {
    hub: wrapped,
    /** Processes other than this one that watch `destination`. */
    watchers: (destination: string) => byDestination.get(destination)?.size ?? 0,
    /** Tells the others this process watches nothing any more (a clean stop). */
    stop() {
      clearInterval(refresh);
      announce({ o: bus.origin, d: [] });
    },
  };
}
