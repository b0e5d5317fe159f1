export const APP_VERSION_KEY = "ess.appVersion";
export const REFRESHED_FLAG = "ess.refreshed";

interface Environment {
  local: Pick<Storage, "getItem" | "setItem" | "removeItem" | "clear">;
  session: Pick<Storage, "getItem" | "setItem" | "removeItem" | "clear">;
  clearCaches: () => Promise<void>;
  reload: () => void;
}

/**
 * Spec §4: at start, when the stored app version differs from the built one and no refresh flag
 * is set, clear the caches, local and session storage, set the flags and reload — so an upgraded
 * console never runs on data an older one left. A first visit (nothing stored) has nothing to
 * clear. Answers whether a reload was started.
 */
export async function clearOnNewVersion(built: string, env: Environment): Promise<boolean> {
  const stored = env.local.getItem(APP_VERSION_KEY);
  if (stored === built) {
    env.session.removeItem(REFRESHED_FLAG);
    return false;
  }
  if (stored === null || env.session.getItem(REFRESHED_FLAG)) {
    env.local.setItem(APP_VERSION_KEY, built);
    return false;
  }
  await env.clearCaches().catch(() => {});
  env.local.clear();
  env.session.clear();
  env.local.setItem(APP_VERSION_KEY, built);
  env.session.setItem(REFRESHED_FLAG, "1");
  env.reload();
  return true;
}

export const browserEnvironment = (): Environment => ({
  local: localStorage,
  session: sessionStorage,
  async clearCaches() {
    if (!("caches" in window)) return;
    for (const key of await caches.keys()) await caches.delete(key);
  },
  reload: () => location.reload(),
});
