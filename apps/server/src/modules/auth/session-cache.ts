import type { ClusterBus } from "../../cluster/bus.ts";
import type { AuthContext } from "./auth.context.ts";

interface Entry {
  context: AuthContext;
  accessExpiresAt: number;
  cachedUntil: number;
}

/**
 * Resolved sessions by token digest, kept for a few seconds so that each API request does not
 * repeat the session query. Sign-out and account changes drop entries at once, in every process
 * of the console when a cluster bus is given. A TTL of 0 disables the cache.
 */
export function createSessionCache(ttlMs: number, maxEntries = 10_000, cluster?: ClusterBus) {
  const entries = new Map<string, Entry>();
  const forgetSession = (sessionId: number) => {
    for (const [key, entry] of entries) if (entry.context.sessionId === sessionId) entries.delete(key);
  };
  const forgetUser = (userId: number) => {
    for (const [key, entry] of entries) if (entry.context.userId === userId) entries.delete(key);
  };
  // A process that may have missed a sign-out keeps nothing it cannot vouch for.
  cluster?.onGap(() => entries.clear());
  return {
    get(key: string, now = Date.now()): Entry | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.cachedUntil <= now) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },
    set(key: string, context: AuthContext, accessExpiresAt: number, now = Date.now()) {
      if (ttlMs <= 0) return;
      // Map iteration is insertion order, so the first key is the oldest entry.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { context, accessExpiresAt, cachedUntil: Math.min(now + ttlMs, accessExpiresAt) });
    },
    forgetSession: cluster ? cluster.broadcast("session.forget", forgetSession) : forgetSession,
    forgetUser: cluster ? cluster.broadcast("session.forgetUser", forgetUser) : forgetUser,
    get size() {
      return entries.size;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
