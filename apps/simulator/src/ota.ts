import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { OtaProgress, OtaRequest } from "@ess/contracts";
import { registerFromVersion } from "@ess/domain";
import type { DeviceCondition } from "./device-status.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Result codes (`TP_0X04_8Filter`) of the failures an inverter reports, as they occur in the field. */
export const OTA_RESULT = {
  communication: 32865,
  outOfMemory: 32866,
  writeFailed: 32870,
  badLength: 32871,
  crc: 32872,
  versionMismatch: 32874,
  stateNotAllowed: 32869,
} as const;

/** Random failures: where they strike and what the device then reports. */
const RANDOM_FAILURES = [
  { stage: "flashing", code: OTA_RESULT.writeFailed },
  { stage: "flashing", code: OTA_RESULT.outOfMemory },
  { stage: "verifying", code: OTA_RESULT.crc },
  { stage: "verifying", code: OTA_RESULT.versionMismatch },
] as const;

export class DownloadError extends Error {
  /** True when asking again cannot help (refused, not found). */
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

/** Fetches a package through the console with the device's own credentials (HTTP Basic). */
export function httpPackageFetcher(sn: string, secret: string) {
  const authorization = `Basic ${Buffer.from(`${sn}:${secret}`).toString("base64")}`;
  return async (url: string, onBytes: (received: number) => void): Promise<Buffer> => {
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization } });
    } catch (error) {
      throw new DownloadError(`package fetch failed: ${(error as Error).message}`, false);
    }
    if (!response.ok || !response.body) {
      // 401/403/404 will not mend by asking again; a 5xx (a console restarting) may.
      throw new DownloadError(`package fetch answered ${response.status}`, response.status < 500);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        chunks.push(Buffer.from(chunk));
        received += chunk.length;
        onBytes(received);
      }
    } catch (error) {
      throw new DownloadError(`package download broke off: ${(error as Error).message}`, false);
    }
    return Buffer.concat(chunks);
  };
}

export type PackageFetcher = ReturnType<typeof httpPackageFetcher>;

export interface UpgradeOptions {
  /** Fail on purpose (a random, realistic cause). */
  fail: boolean;
  /** Picks among the random failures (0 ≤ x < 1). */
  random?: () => number;
  report: (p: OtaProgress) => Promise<void>;
  fetchPackage: PackageFetcher;
  stepMs?: number;
  /** Download attempts before giving up (the console may be restarting). */
  downloadAttempts?: number;
  /** The id to report under: the console may send the same order again with a new id. */
  currentId?: () => number;
}

/**
 * A firmware upgrade as an inverter runs it: accept the order, download the package from the
 * console (retrying while it is unreachable), check its SHA-256 (a package that fails it is
 * refused with a CRC error), flash, verify, then report success with the new version in its
 * registers — or failure with the upgrade result code.
 */
export async function runUpgrade(req: OtaRequest, condition: DeviceCondition, options: UpgradeOptions): Promise<boolean> {
  const step = options.stepMs ?? 300;
  const report = (p: Omit<OtaProgress, "v" | "id">) => options.report({ v: 1, id: options.currentId?.() ?? req.id, ...p });
  const failure = options.fail ? RANDOM_FAILURES[Math.floor((options.random ?? Math.random)() * RANDOM_FAILURES.length)] : null;
  const failWith = async (resultCode: number, extra: Partial<OtaProgress> = {}) => {
    condition.upgradePercent = 0;
    await report({ stage: "failed", percent: 100, resultCode, ...extra });
    return false;
  };

  await report({ stage: "accepted", percent: 0 });
  let bytes: Buffer | null = null;
  let lastReported = -1;
  const attempts = options.downloadAttempts ?? 8;
  for (let attempt = 1; attempt <= attempts && !bytes; attempt++) {
    try {
      bytes = await options.fetchPackage(req.url, (received) => {
        const percent = Math.min(100, Math.floor((received / req.size) * 100));
        condition.upgradePercent = Math.round(percent / 2);
        // Report in steps of a quarter, not per chunk.
        if (Math.floor(percent / 25) > lastReported) {
          lastReported = Math.floor(percent / 25);
          void report({ stage: "downloading", percent, bytesReceived: received });
        }
      });
    } catch (error) {
      if (error instanceof DownloadError && error.permanent) return failWith(OTA_RESULT.communication);
      if (attempt === attempts) return failWith(OTA_RESULT.communication);
      await pause(Math.min(4000, 500 * 2 ** (attempt - 1)));
    }
  }
  const pkg = bytes as Buffer;
  const crcReceived = crc32(pkg).toString(16).padStart(8, "0");
  await report({ stage: "downloading", percent: 100, bytesReceived: pkg.length });
  if (pkg.length !== req.size) return failWith(OTA_RESULT.badLength, { bytesReceived: pkg.length, crcReceived });
  if (createHash("sha256").update(pkg).digest("hex") !== req.sha256) {
    // The device refuses a package that is not the one the order describes.
    return failWith(OTA_RESULT.crc, { bytesReceived: pkg.length, crcReceived });
  }
  await pause(step);
  for (let percent = 0; percent <= 100; percent += 25) {
    condition.upgradePercent = 50 + Math.round(percent / 2);
    await report({ stage: "flashing", percent });
    if (failure?.stage === "flashing" && percent === 50) return failWith(failure.code);
    await pause(step);
  }
  await report({ stage: "verifying", percent: 100, crcReceived });
  await pause(step);
  if (failure?.stage === "verifying") return failWith(failure.code, { crcReceived });
  condition.upgradePercent = 0;
  const version = registerFromVersion(req.version);
  // The MCU version is what the device's version register (TP_0X04_1, single-phase mcuSoftwareVersion) shows.
  if (version !== null && req.firmwareType === 3) condition.firmware = version;
  await report({ stage: "succeeded", percent: 100, version: req.version });
  return true;
}
