import type { OtaProgress, OtaRequest } from "@ess/contracts";
import type { DeviceCondition } from "./device-status.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A firmware upgrade as an inverter runs it: download (in chunks), flash, verify, then report
 * success with the new version in its registers — or failure with the upgrade result code.
 */
export async function runUpgrade(
  req: OtaRequest,
  condition: DeviceCondition,
  options: { fail: boolean; report: (p: OtaProgress) => Promise<void>; stepMs?: number },
): Promise<void> {
  const step = options.stepMs ?? 300;
  const report = (p: Omit<OtaProgress, "v" | "id">) => options.report({ v: 1, id: req.id, ...p });
  for (let percent = 0; percent <= 100; percent += 20) {
    condition.upgradePercent = Math.round(percent / 2);
    await report({ stage: "downloading", percent, bytesReceived: Math.round((req.size * percent) / 100) });
    await pause(step);
  }
  for (let percent = 0; percent <= 100; percent += 25) {
    condition.upgradePercent = 50 + Math.round(percent / 2);
    await report({ stage: "flashing", percent });
    await pause(step);
  }
  await report({ stage: "verifying", percent: 100, crcReceived: req.sha256.slice(0, 8) });
  await pause(step);
  condition.upgradePercent = 0;
  if (options.fail) {
    await report({ stage: "failed", percent: 100, resultCode: 36872 });
    return;
  }
  const version = Math.round(Number.parseFloat(req.version) * 100);
  if (Number.isFinite(version) && version > 0 && version <= 65535) condition.firmware = version;
  await report({ stage: "succeeded", percent: 100 });
}
