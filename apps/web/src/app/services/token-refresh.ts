import { API } from "../../api/api.ts";
import { call } from "../../api/client.ts";
import { secondsLeft, sessionStore } from "../session.ts";
import { clearLock } from "../state/lock.ts";

/** Spec §9: checked every 10 s; refreshed when 1,000 s or less remain. */
export const REFRESH_TICK_MS = 10_000;
export const REFRESH_WHEN_LEFT_S = 1000;

export const needsRefresh = (left: number) => left <= REFRESH_WHEN_LEFT_S;

/**
 * Keeps the session alive: every tick it looks at the time left and exchanges the refresh token
 * for new tokens when it is short. A refusal ends the session (the caller signs in again).
 */
export function startTokenRefresh(onRefused: (error: unknown) => void): () => void {
  let busy = false;
  const tick = async () => {
    const session = sessionStore.get();
    if (!session || busy || !needsRefresh(secondsLeft(session))) return;
    busy = true;
    try {
      const token = await call(
        API.token.refresh,
        { query: { grant_type: "refresh_token", scope: "server", refresh_token: session.refresh_token } },
        { as: "client" },
      );
      // The user may have signed out meanwhile; a late answer must not bring the session back.
      if (sessionStore.get()?.refresh_token !== session.refresh_token) return;
      sessionStore.replaceTokens(token);
      clearLock();
    } catch (error) {
      if (sessionStore.get()?.refresh_token === session.refresh_token) onRefused(error);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), REFRESH_TICK_MS);
  void tick();
  return () => clearInterval(timer);
}
