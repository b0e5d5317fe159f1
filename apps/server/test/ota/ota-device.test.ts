import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { tempDataDir } from "../helpers/server-process.ts";
import { signIn } from "../helpers/test-app.ts";
import { addFirmware, apiAs, connectFleet, firmwareBytes } from "./ota-world.ts";

type Record = {
  id: number;
  status: number;
  stage: string | null;
  cause: string | null;
  resultCode: number | null;
  crcSent: string | null;
  crcReceived: string | null;
  bytesSent: number;
  bytesReceived: number;
  bytesTotal: number;
  attempts: number;
  percent: number;
};
type Fields = { fields: { field: string; message: string }[] };

describe("OTA to one device", () => {
  let runtime: Runtime;
  let token = "";
  let fleet: Awaited<ReturnType<typeof connectFleet>>;
  const dataDir = tempDataDir("ess-ota-device-");
  const api = apiAs(
    () => runtime.app,
    () => token,
  );
  const latest = async (deviceId: number) =>
    (await api.get<{ records: Record[] }>(`/admin/lsydeviceupgrade/page?deviceId=${deviceId}`)).body.data.records[0] as Record;
  const settled = async (deviceId: number) => {
    await expect.poll(async () => (await latest(deviceId))?.status, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    return latest(deviceId);
  };
  const count = async (table: string) =>
    (await runtime.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n;

  beforeAll(async () => {
    runtime = await startTestRuntime({
      DATA_DIR: dataDir,
      ESS_OTA_TICK_MS: "200",
      ESS_OTA_CONFIRM_TIMEOUT_S: "5",
      ESS_OTA_PROGRESS_TIMEOUT_S: "5",
      ESS_OTA_OFFLINE_GIVEUP_S: "8",
      ESS_REPEAT_GUARD_MS: "0",
    });
    token = await signIn(runtime.app);
    fleet = await connectFleet(runtime.db, runtime.brokerUrl, 4, { prefix: "ONE", otaStepMs: 50 });
  }, 60_000);
  afterAll(async () => {
    await fleet?.stop();
    await runtime?.close();
  });

  it("refuses bad packages, versions and schedules with the field and the spec's words, changing nothing", async () => {
    const before = [await count("stored_file"), await count("firmware_version"), await count("ota_campaign")];
    const text = await api.upload("notes.txt", Buffer.from("not firmware"));
    expect(text.body).toMatchObject({ code: 1, data: { fields: [{ field: "fileName" }] } });
    const empty = await api.upload("fw.bin", Buffer.alloc(0));
    expect(empty.body.msg).toBe("Upgrade package cannot be empty");
    const fakeZip = await api.upload("fw.zip", Buffer.from("plain bytes, no archive"));
    expect((fakeZip.body.data as unknown as Fields).fields[0]?.field).toBe("fileName");

    const noPackage = await api.post<Fields>("/admin/app/version/save", { type: 3, versionCode: "1.50", versionName: "x" });
    expect(noPackage.body.data.fields).toContainEqual({ field: "fileId", message: "Upgrade package cannot be empty" });
    const noVersion = await api.post<Fields>("/admin/app/version/save", {
      type: 3,
      versionCode: "",
      versionName: "x",
      fileId: 1,
    });
    expect(noVersion.body.data.fields).toContainEqual({ field: "versionCode", message: "Please add the upgrade version number" });
    expect(await count("firmware_version")).toBe(before[1]);

    const { versionId } = await addFirmware(api, { versionCode: "1.50", bytes: firmwareBytes(4096, 9) });
    const duplicate = await api.upload("again.bin", firmwareBytes(4096, 9));
    expect(duplicate.status).toBe(200);
    const sameCode = await api.post<Fields>("/admin/app/version/save", {
      type: 3,
      versionCode: "1.50",
      versionName: "Again",
      fileId: duplicate.body.data.fileId,
    });
    expect(sameCode.body.data.fields?.[0]?.field).toBe("versionCode");

    const campaign = (times: string[]) =>
      api.post<Fields>("/admin/lsyupgrade/issued", { name: "Bad", versionId, times, filter: { sn: fleet.prefix } });
    expect((await campaign([])).body.data.fields).toContainEqual({ field: "times", message: "Set at least one time" });
    const t = "2030-01-01T08:00:00.000Z";
    expect((await campaign([t, t])).body.data.fields).toContainEqual({ field: "times", message: "Times cannot duplicate" });
    expect((await campaign([t, "2030-01-02T08:00:00Z", "2030-01-03T08:00:00Z", "2030-01-04T08:00:00Z"])).body.code).toBe(1);
    expect(await count("ota_campaign")).toBe(before[2]);
    expect(await count("device_upgrade")).toBe(0);
  });

  it("asks for the BMS index and BCU id where the firmware type needs them", async () => {
    const { versionId } = await addFirmware(api, { type: 10, versionCode: "3.10", bytes: firmwareBytes(2048, 3) });
    const device = fleet.devices[0] as (typeof fleet.devices)[number];
    const refused = await api.post<Fields>("/admin/app/version/ota/send", { deviceId: device.id, id: versionId });
    expect(refused.body.data.fields.map((f) => f.field).sort()).toEqual(["bcuId", "bmsId"]);
    const sent = await api.post<Record>("/admin/app/version/ota/send", {
      deviceId: device.id,
      id: versionId,
      bmsId: 2,
      bcuId: 101,
    });
    // Sent at once: the device may already have accepted it by the time the answer is read.
    expect(sent.body.code).toBe(0);
    expect(sent.body.data.status).toBeLessThan(3);
    const done = await settled(device.id);
    expect(done).toMatchObject({ status: 4, percent: 100, cause: null });
    expect(done.bytesSent).toBe(2048);
    expect(done.bytesReceived).toBe(2048);
    expect(done.crcReceived).toBe(done.crcSent);
    await expect
      .poll(async () => (await runtime.db.query("SELECT online_status AS s FROM device WHERE id = $1", [device.id])).rows[0]?.s)
      .toBe(1);
    // The device now runs it: the same version again is refused as already there.
    const again = await api.post("/admin/app/version/ota/send", { deviceId: device.id, id: versionId, bmsId: 2, bcuId: 101 });
    expect(again.body.msg).toBe("The device already runs this version");
  });

  it("checks compatibility against the model and the version a device runs (its readings show the MCU version)", async () => {
    const uploaded = await api.upload("mcu-2.00.bin", firmwareBytes(2048, 31));
    const saved = await api.post<{ id: number }>("/admin/app/version/save", {
      type: 3,
      versionCode: "2.00",
      versionName: "From 1.32 only",
      fileId: uploaded.body.data.fileId,
      upgradeableFrom: ["1.32"],
      phaseType: 2,
    });
    const reporting = fleet.devices[0] as (typeof fleet.devices)[number];
    await reporting.sim.publishFrame();
    type Preview = { id: number; currentVersion: string | null; compatible: boolean; reason: string | null }[];
    const preview = async () =>
      (await api.get<Preview>(`/admin/lsyupgrade/preview?versionId=${saved.body.data.id}&sn=${fleet.prefix}`)).body.data;
    await expect.poll(async () => (await preview()).find((d) => d.id === reporting.id)?.currentVersion).toBe("1.32");
    const rows = await preview();
    expect(rows.find((d) => d.id === reporting.id)).toMatchObject({ compatible: true, reason: null });
    // Devices that never reported cannot be shown to run an upgradeable version.
    expect(rows.filter((d) => d.id !== reporting.id).every((d) => d.reason === "ota:versionNotUpgradeable")).toBe(true);
    const single = await api.post<{ id: number }>("/admin/app/version/save", {
      type: 3,
      versionCode: "2.01",
      versionName: "Single phase",
      fileId: uploaded.body.data.fileId,
      phaseType: 1,
    });
    const refused = await api.post("/admin/app/version/ota/send", { deviceId: reporting.id, id: single.body.data.id });
    expect(refused.body.msg).toBe("This version is not for this device's model");
  });

  it("a package that fails its checksum is refused by the device and reported as a CRC error", async () => {
    const bytes = firmwareBytes(8192, 11);
    const { versionId, file } = await addFirmware(api, { versionCode: "1.60", bytes });
    // The stored file is damaged after it was checksummed (a disk fault, a tampered copy).
    const damaged = Buffer.from(bytes);
    damaged[100] = (damaged[100] ?? 0) ^ 0xff;
    // Where the console keeps it: in the database on a PostgreSQL server, in DATA_DIR/files otherwise.
    const inDatabase = await runtime.db.query("UPDATE file_chunk SET bytes = $2 WHERE sha256 = $1 AND seq = 0", [
      file.sha256,
      damaged,
    ]);
    if (inDatabase.rowCount === 0) await writeFile(join(dataDir, "files", file.sha256), damaged);
    const device = fleet.devices[1] as (typeof fleet.devices)[number];
    const sent = await api.post<Record>("/admin/app/version/ota/send", { deviceId: device.id, id: versionId });
    expect(sent.status).toBe(200);
    const done = await settled(device.id);
    expect(done).toMatchObject({ status: 3, cause: "crc", resultCode: 32872 });
    expect(done.crcReceived).not.toBe(done.crcSent);
    expect(device.sim.brain.condition.firmware).toBe(132);
  });

  it("serves packages only to a device with an upgrade to them, signed in with its own secret", async () => {
    const { file } = await addFirmware(api, { versionCode: "1.70", bytes: firmwareBytes(1024, 2) });
    const device = fleet.devices[2] as (typeof fleet.devices)[number];
    const basic = (secret: string) => `Basic ${Buffer.from(`${device.sn}:${secret}`).toString("base64")}`;
    const wrong = await runtime.app.inject({ url: `/ota/package/${file.fileId}`, headers: { authorization: basic("nope") } });
    expect(wrong.statusCode).toBe(401);
    const anonymous = await runtime.app.inject({ url: `/ota/package/${file.fileId}` });
    expect(anonymous.statusCode).toBe(401);
    const notOrdered = await runtime.app.inject({
      url: `/ota/package/${file.fileId}`,
      headers: { authorization: basic(device.sim.identity.secret) },
    });
    expect(notOrdered.statusCode).toBe(404);
  });

  it("a device that drops off mid-upgrade is ordered again when it returns and finishes", async () => {
    const { versionId } = await addFirmware(api, { versionCode: "1.80", bytes: firmwareBytes(16 * 1024, 4) });
    const device = fleet.devices[2] as (typeof fleet.devices)[number];
    device.sim.options.otaStepMs = 600;
    await api.post("/admin/app/version/ota/send", { deviceId: device.id, id: versionId });
    await expect.poll(async () => (await latest(device.id)).status, { timeout: 20_000, interval: 100 }).toBe(2);
    await device.sim.restart(1500);
    const done = await settled(device.id);
    expect(done).toMatchObject({ status: 4, cause: null });
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(device.sim.brain.condition.firmware).toBe(180);
    expect(device.sim.upgradesRun).toBe(1);
  });

  it("a device that does not come back fails as offline, not upgrading forever", async () => {
    const { versionId } = await addFirmware(api, { versionCode: "1.90", bytes: firmwareBytes(16 * 1024, 6) });
    const device = fleet.devices[3] as (typeof fleet.devices)[number];
    device.sim.options.otaStepMs = 600;
    await api.post("/admin/app/version/ota/send", { deviceId: device.id, id: versionId });
    await expect.poll(async () => (await latest(device.id)).status, { timeout: 20_000, interval: 100 }).toBe(2);
    await device.sim.stop();
    const done = await settled(device.id);
    expect(done).toMatchObject({ status: 3, cause: "offline" });
    const status = (await runtime.db.query("SELECT online_status AS s FROM device WHERE id = $1", [device.id])).rows[0]?.s;
    expect(status).toBe(0);
    // An offline device is refused at once.
    const refused = await api.post("/admin/app/version/ota/send", { deviceId: device.id, id: versionId });
    expect(refused.body.msg).toBe("Device is Offline");
  });
});
