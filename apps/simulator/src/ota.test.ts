import type { OtaProgress } from "@ess/contracts";
import { describe, expect, it } from "vitest";
import type { DeviceCondition } from "./device-status.ts";
import { runUpgrade } from "./ota.ts";

const request = {
  v: 1 as const,
  id: 9,
  firmwareType: 3,
  version: "1.45",
  url: "https://files.example/fw.bin",
  size: 1000,
  sha256: "a".repeat(64),
};
const condition = (): DeviceCondition => ({
  running: true,
  alarmWords: new Map(),
  faultLevel: 0,
  upgradePercent: 0,
  firmware: 132,
});

describe("firmware upgrades", () => {
  it("reports download, flashing and verification, then runs the new version", async () => {
    const c = condition();
    const seen: OtaProgress[] = [];
    await runUpgrade(request, c, { fail: false, stepMs: 1, report: async (p) => void seen.push(p) });
    expect([...new Set(seen.map((p) => p.stage))]).toEqual(["downloading", "flashing", "verifying", "succeeded"]);
    expect(seen.filter((p) => p.stage === "downloading").map((p) => p.percent)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(c.firmware).toBe(145);
  });

  it("reports a failure with its result code and keeps the old version", async () => {
    const c = condition();
    const seen: OtaProgress[] = [];
    await runUpgrade(request, c, { fail: true, stepMs: 1, report: async (p) => void seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ stage: "failed", resultCode: 36872 });
    expect(c.firmware).toBe(132);
  });
});
