import { type PlantSpec, siteById, VirtualDevice } from "@ess/simulator";
import { expect } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { apiCaller, type Injectable } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";

export type { Answer } from "../helpers/api-caller.ts";

/** Calls the API as a signed-in user (English messages). */
export function apiAs(app: () => Injectable, token: () => string) {
  const call = apiCaller(app, token);
  return {
    get: <T>(url: string) => call<T>("GET", url),
    post: <T>(url: string, body: unknown) => call<T>("POST", url, body),
    /** Uploads a package (the body is the file) and returns its stored description. */
    upload: (name: string, bytes: Buffer) =>
      call<{ fileId: number; sha256: string; size: number; crc32: string }>(
        "POST",
        `/admin/file/info/upload/file?fileName=${encodeURIComponent(name)}`,
        bytes,
        { headers: { "content-type": "application/octet-stream" } },
      ),
  };
}
export type Api = ReturnType<typeof apiAs>;

/** A firmware package of `size` bytes whose content depends on `seed`. */
export const firmwareBytes = (size: number, seed = 1) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251));

/** Uploads a package and records a firmware version of it; returns the version id and the package. */
export async function addFirmware(
  api: Api,
  options: { type?: number; versionCode: string; bytes: Buffer; phaseType?: 1 | 2 | null },
) {
  const uploaded = await api.upload(`mcu-${options.versionCode}.bin`, options.bytes);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const saved = await api.post<{ id: number }>("/admin/app/version/save", {
    type: options.type ?? 3,
    versionCode: options.versionCode,
    versionName: `MCU ${options.versionCode}`,
    notes: { "en-US": "Faster start-up", "zh-CN": "启动更快" },
    fileId: uploaded.body.data.fileId,
    phaseType: options.phaseType ?? null,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { versionId: saved.body.data.id, file: uploaded.body.data };
}

function plant(sn: string, seed: number): PlantSpec {
  return {
    sn,
    product: "three",
    site: siteById("rome"),
    ratedW: 12_000,
    pvKwp: 14,
    batteryModules: 8,
    cellAh: 50,
    generatorW: null,
    household: { size: 2, baseW: 300 },
    seed,
  };
}

/** Waits until `check` holds (outside a test body, where expect.poll is not allowed). */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `count` registered three-phase devices, each a simulator connected to the broker (no telemetry timer). */
export async function connectFleet(
  db: Db,
  brokerUrl: string,
  count: number,
  options: { prefix: string; otaFailRate?: number; otaStepMs?: number },
) {
  const prefix = uniqueSerial(options.prefix);
  const devices: { id: number; sn: string; sim: VirtualDevice }[] = [];
  for (let i = 0; i < count; i++) {
    const d = await registerDevice(db, { sn: `${prefix}-${String(i).padStart(3, "0")}`, phaseType: 2, timeZone: "Europe/Rome" });
    const sim = new VirtualDevice(d, plant(d.sn, 1000 + i), {
      brokerUrl,
      intervalMs: 600_000,
      manual: true,
      otaFailRate: options.otaFailRate ?? 0,
      otaStepMs: options.otaStepMs ?? 20,
    });
    devices.push({ id: d.id, sn: d.sn, sim });
  }
  await Promise.all(devices.map((d) => d.sim.start()));
  const ids = devices.map((d) => d.id);
  await waitFor(
    async () =>
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND online_status = 1", [ids]))
        .rows[0]?.n === count,
    30_000,
    "every device online",
  );
  return { prefix, devices, stop: () => Promise.all(devices.map((d) => d.sim.stop())) };
}

export interface CampaignView {
  id: number;
  state: string;
  excluded: number;
  counts: { total: number; pending: number; confirmed: number; upgrading: number; failed: number; succeeded: number };
}

/** Waits until the campaign has completed (or `timeoutMs` passed) and returns it. */
export async function campaignDone(api: Api, id: number, timeoutMs: number) {
  await expect
    .poll(async () => (await api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data?.state, {
      timeout: timeoutMs,
      interval: 500,
    })
    .toBe("completed");
  return (await api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data;
}
