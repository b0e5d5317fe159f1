import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, testBrokers, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained, manualDevice, rawDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Answer = {
  code: number;
  msg: string;
  data: { values: Record<string, number | string | null>; fields?: { field: string; message: string }[] };
};

describe.each(testBrokers())("talking to devices through the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  const devices: VirtualDevice[] = [];
  const serials: string[] = [];

  const get = async (url: string, language = "en-US") => {
    const r = await runtime.app.inject({
      method: "GET",
      url,
      headers: { authorization: `Bearer ${token}`, "accept-language": language },
    });
    return { status: r.statusCode, body: r.json() as Answer };
  };
  const latest = (deviceId: number, column: string) => async () =>
    (
      await runtime.db.query(
        `SELECT h.${column} AS v FROM device_latest l JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts WHERE l.device_id = $1`,
        [deviceId],
      )
    ).rows[0]?.v;
  const online = (deviceId: number) => async () =>
    (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [deviceId])).rows[0]?.s;
  const connected = async (prefix: string, product: "single" | "three", site: string) => {
    const d = await registerDevice(runtime.db, {
      sn: uniqueSerial(prefix),
      phaseType: product === "three" ? 2 : 1,
      timeZone: "Europe/Rome",
    });
    serials.push(d.sn);
    const sim = await manualDevice(runtime, d, product, site);
    devices.push(sim);
    await sim.publishFrame();
    await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
    return { ...d, sim };
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ ...env, ESS_PAGE_READ_TIMEOUT_MS: "1500" });
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await clearRetained(runtime, serials);
    await runtime.close();
  });

  it("answers a page read with the device's page, and refuses pages its model lacks", async () => {
    const three = await connected("PR3", "three", "rome");
    const monitor = await get(`/admin/param/set/obtain?deviceId=${three.id}&val=41`);
    expect(monitor.status).toBe(200);
    expect(monitor.body.data.values.TP_0X04_25).toBe(Math.round(three.sim.brain.plant.state.soc));
    const settings = await get(`/admin/param/set/obtain?deviceId=${three.id}&val=48`);
    expect(settings.body.data.values.TP_0X03_1024).toBe(1); // Italy, the site's country code
    expect(settings.body.data.values.TP_0X03_1058).toBe(253);

    const single = await connected("PR1", "single", "rome");
    const system = await get(`/admin/param/set/obtain?deviceId=${single.id}&val=8`);
    expect(system.body.data.values.systemModeSet).toBe(1);
    const wrong = await get(`/admin/param/set/obtain?deviceId=${single.id}&val=47`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.fields).toEqual([{ field: "val", message: "This device's model has no page 47" }]);
  });

  it('says "Device is Offline" for an offline device and times out for a silent one, in the caller\'s language', async () => {
    const offline = await registerDevice(runtime.db, { sn: uniqueSerial("OFF"), phaseType: 2 });
    const answer = await get(`/admin/param/set/obtain?deviceId=${offline.id}&val=41`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 1, msg: "Device is Offline" });
    expect((await get(`/admin/param/set/obtain?deviceId=${offline.id}&val=41`, "zh-CN")).body.msg).toBe("设备离线");

    // Online (it published), but it never answers page reads.
    const silent = await registerDevice(runtime.db, { sn: uniqueSerial("MUTE"), phaseType: 2 });
    serials.push(silent.sn);
    const client = await rawDevice(runtime, silent);
    try {
      await client.publishAsync(`ess/v1/${silent.sn}/status`, "online", { qos: 1 });
      await expect.poll(online(silent.id), { timeout: 5000 }).toBe(1);
      const timedOut = await get(`/admin/param/set/obtain?deviceId=${silent.id}&val=41`);
      expect(timedOut.status).toBe(503);
      expect(timedOut.body).toMatchObject({ code: 1, msg: "The device did not answer in time; please try again later" });
    } finally {
      await client.endAsync();
    }
  });

  it("applies settings a running device takes, refuses those that need standby, and runs commands", async () => {
    const d = await connected("SET", "three", "rome");
    const { requests } = runtime.telemetry;
    expect(await requests.write(d.sn, [{ key: "TP_0X03_1024", raw: 2 }])).toMatchObject({
      ok: false,
      code: "needsStandby",
      key: "TP_0X03_1024",
    });
    expect(await requests.write(d.sn, [{ key: "TP_0X03_72", raw: 9 }])).toMatchObject({ ok: false, code: "outOfRange" });
    expect(await requests.write(d.sn, [{ key: "TP_0X04_25", raw: 50 }])).toMatchObject({ ok: false, code: "readOnly" });
    expect(await requests.write(d.sn, [{ key: "TP_0X03_72", raw: 3 }])).toMatchObject({ ok: true });
    await d.sim.publishFrame();
    await expect.poll(latest(d.id, "system_mode")).toBe(3);

    expect(await requests.command(d.sn, 1)).toMatchObject({ ok: true }); // power off: standby
    expect(await requests.write(d.sn, [{ key: "TP_0X03_1024", raw: 2 }])).toMatchObject({ ok: true });
    const page = await get(`/admin/param/set/obtain?deviceId=${d.id}&val=48`);
    expect(page.body.data.values.TP_0X03_1024).toBe(2);
    await d.sim.publishFrame();
    await expect.poll(latest(d.id, "system_state")).toBe(8); // standby
    expect(await requests.command(d.sn, 0)).toMatchObject({ ok: true });
  });

  it("logs a device going offline by its last will and by silence, and back online when it returns", async () => {
    const d = await connected("WILL", "single", "rome");
    await d.sim.restart(1500); // the link dies without a goodbye: the broker publishes the will
    await expect.poll(online(d.id), { timeout: 5000 }).toBe(0);
    await d.sim.publishFrame();
    await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
    await runtime.db.query("UPDATE device SET last_seen_at = now() - interval '10 minutes' WHERE id = $1", [d.id]);
    await runtime.telemetry.presence.sweep();
    expect(await online(d.id)()).toBe(0);

    const log = await get(`/admin/device/onoffline/page?deviceId=${d.id}&size=10`);
    const records = (log.body.data as unknown as { records: { status: number; reason: string }[] }).records;
    expect(records.map((r) => [r.status, r.reason])).toEqual([
      [0, "timeout"],
      [1, "message"],
      [0, "will"],
      [1, "message"],
    ]);
  });

  it("shows a device as upgrading while it reports progress on the console's order, not on an order it does not know", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("OTA"), phaseType: 2 });
    serials.push(d.sn);
    const client = await rawDevice(runtime, d);
    try {
      const progress = (id: number, stage: string, percent: number) =>
        client.publishAsync(`ess/v1/${d.sn}/ota`, JSON.stringify({ v: 1, id, stage, percent }), { qos: 1 });
      // No order of the console out to it: a report changes nothing, the device is just online.
      await progress(5, "downloading", 20);
      await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
      // The console sends an order under request id 5.
      const file = await runtime.db.query<{ id: number }>(
        "INSERT INTO stored_file (tenant_id, name, size, sha256, crc32) VALUES (1, 'mcu.bin', 1, repeat('a', 64), '00000000') RETURNING id",
      );
      const version = await runtime.db.query<{ id: number }>(
        `INSERT INTO firmware_version (tenant_id, type, version_code, version_name, file_id) VALUES (1, 3, '9.99', 'MCU 9.99', $1)
         RETURNING id`,
        [file.rows[0]?.id],
      );
      await runtime.db.query(
        `INSERT INTO device_upgrade (tenant_id, device_id, version_id, firmware_type, version_code, request_id, attempts, sent_at, deadline_at)
         VALUES (1, $1, $2, 3, '9.99', 5, 1, now(), now() + interval '1 hour')`,
        [d.id, version.rows[0]?.id],
      );
      await progress(5, "downloading", 20);
      await expect.poll(online(d.id), { timeout: 5000 }).toBe(2);
      await progress(5, "succeeded", 100);
      await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
      const log = await get(`/admin/device/onoffline/page?deviceId=${d.id}&size=10`);
      const records = (log.body.data as unknown as { records: { status: number; reason: string }[] }).records;
      expect(records.map((r) => [r.status, r.reason])).toEqual([
        [1, "upgrade"],
        [2, "upgrade"],
        [1, "upgrade"],
      ]);
    } finally {
      await client.endAsync();
    }
  });
});
