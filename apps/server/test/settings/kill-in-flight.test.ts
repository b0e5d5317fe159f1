import { afterAll, describe, expect, it } from "vitest";
import { uniqueSerial } from "../helpers/devices.ts";
import { freePort, overHttp, type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { type ScriptedDevice, scriptedDevice } from "../helpers/sim.ts";
import { ADMIN_PASSWORD } from "../helpers/test-app.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";
import { addFirmware, apiAs, firmwareBytes } from "../ota/ota-world.ts";

type WriteRec = { id: number; state: string; refusal: string | null; sentAt: number | null; finishedAt: number | null };
type Outcome = { counts: Record<string, number>; records: (WriteRec & { sn: string })[] };
type Upgrade = { status: number; cause: string | null; attempts: number };

// Compressed time: a device has 4 s to answer a write; an accepted upgrade 5 s to show progress,
// an order 3 s to be accepted, three orders at most; silence for 10 s makes a device offline.
const ANSWER_MS = 4000;
const TIMES = {
  ESS_PAGE_READ_TIMEOUT_MS: String(ANSWER_MS),
  ESS_WRITE_SWEEP_MS: "300",
  ESS_BULK_CONCURRENCY: "1",
  ESS_OTA_TICK_MS: "200",
  ESS_OTA_CONFIRM_TIMEOUT_S: "3",
  ESS_OTA_PROGRESS_TIMEOUT_S: "5",
  ESS_DEVICE_OFFLINE_AFTER_S: "10",
};

/**
 * Done-when 2 of the hardening: the console is killed (SIGKILL: no clean-up) while a setting write
 * waits for its device, a bulk command is half sent and two upgrades are under way, and started
 * again on the same data. Every record ends by its own timeout, the bulk operation is carried on to
 * its end, and each device shows its real online status.
 */
describe("killing the console with a write, a bulk command and upgrades in flight", () => {
  const servers: ServerProcess[] = [];
  const devices: ScriptedDevice[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    for (const s of servers) await s.stop("SIGKILL").catch(() => {});
    await drop?.();
  });

  it("ends every record by its timeout after the restart, completes the bulk operation, and shows each device's real status", async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh?.drop;
    const env = {
      DATA_DIR: tempDataDir("ess-kill-inflight-"),
      MQTT_PORT: String(await freePort()),
      ESS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ESS_REPEAT_GUARD_MS: "0",
      ...(fresh ? { DATABASE_URL: fresh.url } : {}),
      ...TIMES,
    };
    let server = startServerProcess(env);
    servers.push(server);
    let url = await server.ready();
    const brokerUrl = `mqtt://127.0.0.1:${env.MQTT_PORT}`;
    const signIn = await fetch(`${url}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
    });
    const token = ((await signIn.json()) as { data: { access_token: string } }).data.access_token;
    const api = apiAs(
      () => overHttp(() => url),
      () => token,
    );

    const register = async (prefix: string, options: Parameters<typeof scriptedDevice>[2]) => {
      const saved = await api.post<{ id: number; credential: { secret: string } }>("/admin/lsydevice/save", {
        sn: uniqueSerial(prefix),
        name: prefix,
        model: "T10K",
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const { id, credential } = saved.body.data;
      const sn = (await api.get<{ sn: string }>(`/admin/lsydevice/info?id=${id}`)).body.data.sn;
      const device = await scriptedDevice(brokerUrl, { sn, secret: credential.secret }, options);
      devices.push(device);
      return { id, device };
    };
    const onlineStatus = async (id: number) =>
      (await api.get<{ onlineStatus: number }>(`/admin/lsydevice/info?id=${id}`)).body.data.onlineStatus;
    // W takes a setting write and never answers; of the bulk command's devices, B1 never answers
    // and B2, B3 do; D and E accept an upgrade and say nothing more, D reporting on, E going quiet.
    const w = await register("KW", {});
    const b1 = await register("KB1", {});
    const b2 = await register("KB2", { answers: true });
    const b3 = await register("KB3", { answers: true });
    const d = await register("KD", { acceptsUpgrade: true });
    const e = await register("KE", { acceptsUpgrade: true });
    for (const x of [w, b1, b2, b3, d, e]) await expect.poll(() => onlineStatus(x.id), { timeout: 10_000 }).toBe(1);

    const { versionId } = await addFirmware(api, { versionCode: "2.01", bytes: firmwareBytes(4096, 3) });
    for (const x of [d, e]) {
      const sent = await api.post<Upgrade>("/admin/app/version/ota/send", { deviceId: x.id, id: versionId });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    for (const x of [d, e]) await expect.poll(() => onlineStatus(x.id), { timeout: 10_000 }).toBe(2);
    await e.device.goQuiet();

    const bulk = await api.post<{ bulkId: number }>("/admin/param/set/bulk", {
      filter: { deviceIds: [b1.id, b2.id, b3.id] },
      command: 4,
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const outcome = async () =>
      (await api.get<Outcome>(`/admin/param/set/bulk/outcome?bulkId=${bulk.body.data.bulkId}&size=10`)).body.data;
    // One at a time: B1's command is out, B2's and B3's wait their turn.
    await expect.poll(() => b1.device.received("cmd/command").length).toBe(1);
    expect((await outcome()).counts).toEqual({ sent: 1, queued: 2 });

    // The write's answer is awaited by its request, which the kill cuts.
    void api.post("/admin/param/set/update", { deviceId: w.id, values: { TP_0X03_72: 3 } }).catch(() => {});
    const writeOf = async () =>
      (await api.get<{ records: WriteRec[] }>(`/admin/param/set/records?deviceId=${w.id}`)).body.data.records[0];
    await expect.poll(() => w.device.received("cmd/write").length, { timeout: 10_000 }).toBe(1);
    expect((await writeOf())?.state).toBe("sent");

    await server.stop("SIGKILL");
    server = startServerProcess(env);
    servers.push(server);
    url = await server.ready();

    // The write ends timed out at its deadline (not before), never acknowledged after it.
    await expect.poll(async () => (await writeOf())?.state, { timeout: 15_000 }).toBe("timed_out");
    const write = (await writeOf()) as WriteRec;
    expect(write.refusal).toBe("timeout");
    expect((write.finishedAt as number) - (write.sentAt as number)).toBeGreaterThanOrEqual(ANSWER_MS - 50);
    // A late answer does not reopen it.
    await w.device.ack(w.device.received("cmd/write")[0]?.id as number);
    // The bulk operation is carried on after the restart: B2 and B3 get the command once each.
    await expect.poll(async () => (await outcome()).counts, { timeout: 15_000 }).toEqual({ timed_out: 1, acknowledged: 2 });
    const records = (await outcome()).records;
    expect(records.find((r) => r.sn === b1.device.sn)?.refusal).toBe("timeout");
    expect([b1, b2, b3].map((x) => x.device.received("cmd/command").length)).toEqual([1, 1, 1]);
    expect((await writeOf())?.state).toBe("timed_out");

    // Both upgrades fail by their timeouts; D reports on and is online, E is silent and offline.
    const upgradeOf = async (id: number) =>
      (await api.get<{ records: Upgrade[] }>(`/admin/lsydeviceupgrade/page?deviceId=${id}`)).body.data.records[0];
    for (const x of [d, e]) {
      await expect.poll(async () => (await upgradeOf(x.id))?.status, { timeout: 20_000 }).toBe(3);
      expect(await upgradeOf(x.id)).toMatchObject({ cause: "timeout", attempts: 3 });
    }
    await expect.poll(() => onlineStatus(d.id), { timeout: 5000 }).toBe(1);
    await expect.poll(() => onlineStatus(e.id), { timeout: 5000 }).toBe(0);
    for (const x of [w, b1, b2, b3]) expect(await onlineStatus(x.id)).toBe(1);
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 90_000);
});
