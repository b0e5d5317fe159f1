import { describe, expect, it } from "vitest";
import { APP_VERSION_KEY, clearOnNewVersion, REFRESHED_FLAG } from "./startup-cache.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    clear: () => data.clear(),
  };
}

function environment(local: Record<string, string>, session: Record<string, string> = {}) {
  const env = { local: memoryStorage(local), session: memoryStorage(session), cleared: 0, reloads: 0 };
  return {
    env,
    deps: {
      local: env.local,
      session: env.session,
      clearCaches: async () => {
        env.cleared++;
      },
      reload: () => {
        env.reloads++;
      },
    },
  };
}

describe("start-up cache clearing (spec §4)", () => {
  it("clears caches and both storages, sets the flags and reloads when the stored version differs", async () => {
    const { env, deps } = environment({ [APP_VERSION_KEY]: "3.10.0", "ess.preferences": "{}" }, { "ess.session": "{}" });
    expect(await clearOnNewVersion("3.11.0", deps)).toBe(true);
    expect(env).toMatchObject({ cleared: 1, reloads: 1 });
    expect([...env.local.data]).toEqual([[APP_VERSION_KEY, "3.11.0"]]);
    expect([...env.session.data]).toEqual([[REFRESHED_FLAG, "1"]]);
  });

  it("does nothing on the same version (and drops the flag), on a first visit, or right after its own reload", async () => {
    const same = environment({ [APP_VERSION_KEY]: "3.11.0", keep: "1" }, { [REFRESHED_FLAG]: "1" });
    expect(await clearOnNewVersion("3.11.0", same.deps)).toBe(false);
    expect(same.env.local.getItem("keep")).toBe("1");
    expect(same.env.session.getItem(REFRESHED_FLAG)).toBeNull();

    const first = environment({});
    expect(await clearOnNewVersion("3.11.0", first.deps)).toBe(false);
    expect(first.env.local.getItem(APP_VERSION_KEY)).toBe("3.11.0");

    const flagged = environment({ [APP_VERSION_KEY]: "3.10.0", keep: "1" }, { [REFRESHED_FLAG]: "1" });
    expect(await clearOnNewVersion("3.11.0", flagged.deps)).toBe(false);
    expect(flagged.env).toMatchObject({ cleared: 0, reloads: 0 });
  });
});
