import type { AuthContext } from "../auth/auth.context.ts";

/**
 * Decides whether a caller may subscribe to a destination matching a pattern; `params` are the
 * pattern's `:name` segments. Modules register one per destination family (reminders here;
 * live device data in the telemetry module), so the gateway itself grants nothing.
 */
export type SubscriptionAuthoriser = (caller: AuthContext, params: Record<string, string>) => boolean | Promise<boolean>;

/** A subscriber's delivery function: the gateway writes a MESSAGE frame. */
export type Deliver = (destination: string, body: string) => void;

/** What other server modules use: push a JSON payload to everyone subscribed to a destination. */
export interface RealtimePublisher {
  /**
   * Returns how many subscriptions in this process received it, plus one for each other process of
   * the console that has subscribers to the destination (cluster-hub.ts).
   */
  publish(destination: string, payload: unknown): number;
}

export interface RealtimeHub extends RealtimePublisher {
  /** Registers the authoriser of a destination pattern such as `/device/:sn/live`. */
  authorise(pattern: string, authoriser: SubscriptionAuthoriser): void;
  /** Finds the authoriser for a destination and asks it; unknown destinations are refused. */
  maySubscribe(caller: AuthContext, destination: string): Promise<boolean>;
  /** `caller`: who subscribed, so modules can address what they push to each subscriber's scope. */
  subscribe(destination: string, deliver: Deliver, caller?: AuthContext): () => void;
  subscriberCount(destination?: string): number;
  /** Destinations with at least one subscriber here. */
  destinations(): string[];
  /** `listener` hears when a destination gains its first subscriber here, or loses its last. */
  observe(listener: (destination: string, watched: boolean) => void): void;
  /** The destinations matching a pattern that have subscribers, with their callers (one per subscription). */
  subscribed(pattern: string): { destination: string; params: Record<string, string>; callers: AuthContext[] }[];
}

function compile(pattern: string) {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  const regex = new RegExp(`^${source}$`);
  return (destination: string): Record<string, string> | null => {
    const match = regex.exec(destination);
    if (!match) return null;
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
  };
}

/**
 * Destinations, their authorisers and subscribers, in this process. With several processes,
 * `clusterHub` (cluster-hub.ts) wraps it so that pushes reach subscribers in the others.
 */
export function createRealtimeHub(): RealtimeHub {
  const authorisers: { match: ReturnType<typeof compile>; authoriser: SubscriptionAuthoriser }[] = [];
  const subscribers = new Map<string, Set<Deliver>>();
  const callers = new Map<Deliver, AuthContext>();
  const observers: ((destination: string, watched: boolean) => void)[] = [];
  return {
    authorise(pattern, authoriser) {
      authorisers.push({ match: compile(pattern), authoriser });
    },
    async maySubscribe(caller, destination) {
      for (const { match, authoriser } of authorisers) {
        const params = match(destination);
        if (params) return Boolean(await authoriser(caller, params));
      }
      return false;
    },
    subscribe(destination, deliver, caller) {
      const set = subscribers.get(destination) ?? new Set<Deliver>();
      const first = !subscribers.has(destination);
      subscribers.set(destination, set);
      set.add(deliver);
      if (caller) callers.set(deliver, caller);
      if (first) for (const observe of observers) observe(destination, true);
      return () => {
        if (!set.delete(deliver)) return;
        callers.delete(deliver);
        if (set.size > 0 || subscribers.get(destination) !== set) return;
        subscribers.delete(destination);
        for (const observe of observers) observe(destination, false);
      };
    },
    publish(destination, payload) {
      const set = subscribers.get(destination);
      if (!set) return 0;
      const body = JSON.stringify(payload);
      for (const deliver of set) deliver(destination, body);
      return set.size;
    },
    subscribed(pattern) {
      const match = compile(pattern);
      const out: { destination: string; params: Record<string, string>; callers: AuthContext[] }[] = [];
      for (const [destination, set] of subscribers) {
        const params = match(destination);
        if (!params) continue;
        const known = [...set].flatMap((d) => {
          const c = callers.get(d);
          return c ? [c] : [];
        });
        out.push({ destination, params, callers: known });
      }
      return out;
    },
    destinations: () => [...subscribers.keys()],
    observe(listener) {
      observers.push(listener);
    },
    subscriberCount(destination) {
      if (destination !== undefined) return subscribers.get(destination)?.size ?? 0;
      let n = 0;
      for (const set of subscribers.values()) n += set.size;
      return n;
    },
  };
}
