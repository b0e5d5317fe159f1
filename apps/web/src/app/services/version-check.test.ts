import { afterEach, describe, expect, it, vi } from "vitest";
import { createVersionCheck, isNewBuild, RUNNING_BUILD } from "./version-check.ts";

afterEach(() => vi.unstubAllGlobals());

describe("version check (spec §4)", () => {
  it("knows the running build and tells a different one apart", () => {
    expect(RUNNING_BUILD).toEqual({ version: "3.11.0", build: "v-test", builtAt: "2025-01-01T00:00:00.000Z" });
    expect(isNewBuild(RUNNING_BUILD, RUNNING_BUILD)).toBe(false);
    expect(isNewBuild({ ...RUNNING_BUILD, build: "v-next" }, RUNNING_BUILD)).toBe(true);
  });

  it("fetches the version file past caches, reports a new build once, and only warns when the check fails", async () => {
    const answers = [
      RUNNING_BUILD,
      { ...RUNNING_BUILD, builtAt: "2025-02-01T00:00:00.000Z" },
      { ...RUNNING_BUILD, build: "v-later" },
    ];
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(answers.shift())));
    vi.stubGlobal("fetch", fetchMock);
    const noticed = vi.fn();
    const check = createVersionCheck(noticed);
    await check.check();
    expect(noticed).not.toHaveBeenCalled();
    await check.check();
    await check.check();
    expect(noticed).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toMatch(/version\.json\?t=\d+$/);
    expect(fetchMock.mock.calls[0]?.[1]).toEqual({ cache: "no-store" });

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("fetch", async () => new Response("gone", { status: 404 }));
    const failing = vi.fn();
    await createVersionCheck(failing).check();
    expect(failing).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith("version check failed", expect.any(Error));
    warn.mockRestore();
  });
});
