import { describe, expect, it } from "vitest";
import type { AuthContext } from "./auth.context.ts";
import { createSessionCache } from "./session-cache.ts";

const context = (sessionId: number, userId: number): AuthContext => ({
  sessionId,
  userId,
  tenantId: 1,
  username: `u${userId}`,
  name: "",
  userType: 0,
  timeZone: null,
  roles: [],
  permissions: new Set(),
  mustChangePassword: false,
  org: null,
  parentUserId: null,
});

describe("session cache", () => {
  it("keeps a session for its TTL, never past the token's expiry", () => {
    const cache = createSessionCache(10_000);
    cache.set("a", context(1, 1), 1_000_000 + 60_000, 1_000_000);
    cache.set("b", context(2, 1), 1_000_000 + 3_000, 1_000_000);
    expect(cache.get("a", 1_009_999)?.context.sessionId).toBe(1);
    expect(cache.get("a", 1_010_000)).toBeUndefined();
    expect(cache.get("b", 1_003_000)).toBeUndefined();
  });

  it("forgets a signed-out session and every session of a changed user at once", () => {
    const cache = createSessionCache(10_000);
    const now = Date.now();
    cache.set("a", context(1, 7), now + 60_000);
    cache.set("b", context(2, 7), now + 60_000);
    cache.set("c", context(3, 8), now + 60_000);
    cache.forgetSession(1);
    expect(cache.get("a")).toBeUndefined();
    cache.forgetUser(7);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")?.context.userId).toBe(8);
  });

  it("stays bounded, dropping the oldest entry", () => {
    const cache = createSessionCache(10_000, 2);
    const now = Date.now();
    for (const key of ["a", "b", "c"]) cache.set(key, context(1, 1), now + 60_000);
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBeUndefined();
  });

  it("caches nothing with a TTL of 0", () => {
    const cache = createSessionCache(0);
    cache.set("a", context(1, 1), Date.now() + 60_000);
    expect(cache.get("a")).toBeUndefined();
  });
});
