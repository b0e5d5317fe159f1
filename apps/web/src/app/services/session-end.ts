import type { QueryClient } from "@tanstack/react-query";
import { sessionStore } from "../session.ts";
import { clearLock } from "../state/lock.ts";
import { tabsStore } from "../state/tabs.ts";

let queryClient: QueryClient | null = null;
/** The query cache to empty at session end (the app registers its client once). */
export const setSessionQueryClient = (client: QueryClient) => {
  queryClient = client;
};

/**
 * Ends the session locally (spec §4 Logout): menu, permissions, user info, tokens and roles (all
 * in the session), every tab and the lock. The caller then goes to /login.
 */
export function endSession() {
  sessionStore.clear();
  tabsStore.reset();
  clearLock();
  queryClient?.clear();
}
