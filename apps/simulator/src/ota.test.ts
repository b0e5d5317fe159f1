import { createHash } from "node:crypto";
import type { OtaProgress } from "@ess/contracts";
import { describe, expect, it } from "vitest";
import type { DeviceCondition } from "./device-status.ts";
import { DownloadError, OTA_RESULT, runUpgrade } from "./ota.ts";

const pkg = Buffer.alloc(1000, 7);
const request = {
  v: 1 as const,
  id: 9,
  firmwareType: 3,
  version: "1.45",
  url: "http://console.example/ota/package/1",
  size: pkg.length,
  sha256: createHash("sha256").update(pkg).digest("hex"),
};
const condition = (): DeviceCondition => ({
  running: true,
  alarmWords: new Map(),
  faultLevel: 0,
  upgradePercent: 0,
  firmware: 132,
  selfCheck: 0,
  selfCheckUntil: 0,
});
const serve = (bytes: Buffer) => async (_url: string, onBytes: (n: number) => void) => {
  onBytes(bytes.length / 2);
  onBytes(bytes.length);
  return bytes;
};

async function upgrade(options: Partial<Parameters<typeof runUpgrade>[2]> = {}, c = condition()) {
  const seen: OtaProgress[] = [];
  const ok = await runUpgrade(request, c, {
    fail: false,
    stepMs: 1,
    fetchPackage: serve(pkg),
    report: async (p) => void seen.push(p),
    ...options,
  });
  return { ok, seen, c };
}

describe("firmware upgrades", () => {
  it("accepts, downloads, flashes and verifies, then runs the new version", async () => {
    const { ok, seen, c } = await upgrade();
    expect(ok).toBe(true);
    expect([...new Set(seen.map((p) => p.stage))]).toEqual(["accepted", "downloading", "flashing", "verifying", "succeeded"]);
    expect(seen.find((p) => p.stage === "downloading" && p.percent === 100)?.bytesReceived).toBe(pkg.length);
    expect(seen.find((p) => p.stage === "verifying")?.crcReceived).toMatch(/^[0-9a-f]{8}$/);
    expect(seen.at(-1)).toMatchObject({ stage: "succeeded", version: "1.45" });
    expect(c.firmware).toBe(145);
  });

  it("refuses a package whose checksum is not the order's, with a CRC error, and keeps the old version", async () => {
    const tampered = Buffer.from(pkg);
    tampered[10] = 99;
    const { ok, seen, c } = await upgrade({ fetchPackage: serve(tampered) });
    expect(ok).toBe(false);
    expect(seen.at(-1)).toMatchObject({ stage: "failed", resultCode: OTA_RESULT.crc });
    expect(seen.some((p) => p.stage === "flashing")).toBe(false);
    expect(c.firmware).toBe(132);
  });

  it("fails on purpose with one of the causes inverters report", async () => {
    const codes = new Set<number>();
    for (const x of [0, 0.3, 0.6, 0.9]) {
      const { ok, seen, c } = await upgrade({ fail: true, random: () => x });
      expect(ok).toBe(false);
      expect(c.firmware).toBe(132);
      codes.add(seen.at(-1)?.resultCode as number);
    }
    expect([...codes].sort()).toEqual(
      [OTA_RESULT.writeFailed, OTA_RESULT.outOfMemory, OTA_RESULT.crc, OTA_RESULT.versionMismatch].sort(),
    );
  });

  it("tries the download again while the console is unreachable, and gives up on a refusal", async () => {
    let calls = 0;
    const flaky = async (url: string, onBytes: (n: number) => void) => {
      calls++;
      if (calls < 3) throw new DownloadError("connection refused", false);
      return serve(pkg)(url, onBytes);
    };
    expect((await upgrade({ fetchPackage: flaky })).ok).toBe(true);
    expect(calls).toBe(3);
    const refused = await upgrade({
      fetchPackage: async () => {
        throw new DownloadError("answered 404", true);
      },
    });
    expect(refused.seen.at(-1)).toMatchObject({ stage: "failed", resultCode: OTA_RESULT.communication });
  });
});
