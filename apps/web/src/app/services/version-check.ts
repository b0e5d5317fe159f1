/** Spec §4 Version check and §9: every 60 s, and a reload about 3.2 s after the notice. */
export const VERSION_CHECK_INTERVAL_MS = 60_000;
export const VERSION_RELOAD_DELAY_MS = 3200;

export interface BuildIdentity {
  version: string;
  build: string;
  builtAt: string;
}

/** The build this page runs (written into the bundle by the build). */
export const RUNNING_BUILD: BuildIdentity = { version: __APP_VERSION__, build: __APP_BUILD__, builtAt: __APP_BUILT_AT__ };

export const isNewBuild = (served: BuildIdentity, running: BuildIdentity) =>
  served.version !== running.version || served.build !== running.build || served.builtAt !== running.builtAt;

/**
 * Fetches the version file the build wrote (bypassing caches) and calls `onNewVersion` once when
 * the served build differs from the running one. A failed check only warns in the console.
 */
export function createVersionCheck(onNewVersion: (served: BuildIdentity) => void) {
  let noticed = false;
  let inFlight = false;
  async function check() {
    if (noticed || inFlight) return;
    inFlight = true;
    try {
      const response = await fetch(`${import.meta.env.BASE_URL}version.json?t=${Date.now()}`, { cache: "no-store" });
      if (!response.ok) throw new Error(`version file answered ${response.status}`);
      const served = (await response.json()) as BuildIdentity;
      if (!noticed && isNewBuild(served, RUNNING_BUILD)) {
        noticed = true;
        onNewVersion(served);
      }
    } catch (error) {
      console.warn("version check failed", error);
    } finally {
      inFlight = false;
    }
  }
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    check,
    start() {
      void check();
      timer ??= setInterval(() => void check(), VERSION_CHECK_INTERVAL_MS);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
