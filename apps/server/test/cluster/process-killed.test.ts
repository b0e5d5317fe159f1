import { deviceLiveDestination, reminderDestination } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueSerial } from "../helpers/devices.ts";
import { consoleOn } from "../helpers/live-console.ts";
import { reportingDevice } from "../helpers/reporting-device.ts";
import { type ScriptedDevice, scriptedDevice } from "../helpers/sim.ts";
import { addFirmware, type CampaignView, campaignDone, connectFleet, firmwareBytes } from "../ota/ota-world.ts";
import { type ConsoleCluster, canRunCluster, startConsoleCluster } from "./console-cluster.ts";

// Compressed time, as in the single-process kill test: a device has 4 s to answer a write, an
// order 3 s to be accepted and an upgrade 5 s to show progress; a job's lease lives 3 s.
const ANSWER_MS = 4000;
const TIMES = {
  ESS_PAGE_READ_TIMEOUT_MS: String(ANSWER_MS),
  ESS_WRITE_SWEEP_MS: "300",
  ESS_BULK_CONCURRENCY: "1",
  ESS_OTA_TICK_MS: "200",
  ESS_OTA_CONFIRM_TIMEOUT_S: "3",
  ESS_OTA_PROGRESS_TIMEOUT_S: "5",
  ESS_DEVICE_OFFLINE_AFTER_S: "10",
  ESS_JOB_LEASE_TTL_MS: "3000",
};
const T0 = Date.now() - 6 * 3_600_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 21, done-when 1: three console processes on one PostgreSQL behind HAProxy, consuming from
 * a Mosquitto of their own; one is killed (SIGKILL) during ingest, during a bulk settings operation,
 * during an OTA campaign and under a console's live pushes. Each time the others carry on without
 * it — its jobs by their leases, what the broker kept for it by draining its session — and only
 * once the outcome is checked is it started again with its settings, as an orchestrator would.
 */
describe.skipIf(!canRunCluster)("a console of three processes, one of them killed", () => {
  let cluster: ConsoleCluster;
  const scripted: ScriptedDevice[] = [];
  let fleetStop: (() => Promise<unknown>) | undefined;

  beforeAll(async () => {
    cluster = await startConsoleCluster({ processes: 3, env: TIMES });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(scripted.map((d) => d.stop()));
    await fleetStop?.();
    await cluster?.close();
  });

  const register = async (prefix: string) => {
    const saved = await cluster.api.post<{ id: number; sn: string; credential: { secret: string } }>("/admin/lsydevice/save", {
      sn: uniqueSerial(prefix),
      name: prefix,
      model: "T10K",
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { id, credential } = saved.body.data;
    const sn = (await cluster.api.get<{ sn: string }>(`/admin/lsydevice/info?id=${id}`)).body.data.sn;
    return { id, sn, secret: credential.secret };
  };

  it("during ingest: loses no reading the broker acknowledged to a device, though the killed process does not return", async () => {
    const devices: { id: number; sn: string; secret: string }[] = [];
    for (let i = 0; i < 6; i++) devices.push(await register(`KING${i}`));
    const ids = devices.map((d) => d.id);
    const stored = async () =>
      new Set(
        (
          await cluster.db.query<{ reading: string }>(
            `SELECT d.sn || ':' || (extract(epoch FROM h.ts) * 1000)::bigint AS reading
               FROM telemetry_history h JOIN device d ON d.id = h.device_id WHERE d.id = ANY($1::bigint[])`,
            [ids],
          )
        ).rows.map((r) => r.reading),
      );
    const fleet = devices.map((d) => reportingDevice(cluster.broker.url, d, { from: T0, reconnectMs: 500 }));
    await expect.poll(async () => (await stored()).size, { timeout: 20_000 }).toBeGreaterThan(60);

    // The broker keeps a share of the messages for the dead process's session until another
    // process of the console, seeing its lease expire (3 s), empties and ends that session.
    await cluster.kill(1);
    await pause(1000);
    const after = fleet.map((f) => f.next());
    await pause(5000);
    await Promise.all(fleet.map((f) => f.finish()));

    const acknowledged = fleet.flatMap((f) => [...f.acknowledged]);
    expect(acknowledged.length).toBeGreaterThan(200);
    // Readings sent after the restart are there too: ingest carried on in all three.
    expect(fleet.some((f, i) => [...f.acknowledged].some((r) => Number(r.split(":")[1]) >= (after[i] ?? 0)))).toBe(true);
    let missing: string[] = [];
    await expect
      .poll(
        async () => {
          const now = await stored();
          missing = acknowledged.filter((r) => !now.has(r));
          return missing.length;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(0);
    expect(
      (await cluster.metric(0, "ess_broker_sessions_drained_total")) +
        (await cluster.metric(2, "ess_broker_sessions_drained_total")),
    ).toBe(1);
    await cluster.restart(1);
  }, 90_000);

  it("during a bulk settings operation: another process carries it to its end and every record ends by its timeout", async () => {
    const b1 = await register("KBK1");
    const b2 = await register("KBK2");
    const b3 = await register("KBK3");
    // B1 takes the command and never answers; B2 and B3 answer.
    const devices = [
      await scriptedDevice(cluster.broker.url, b1, {}),
      await scriptedDevice(cluster.broker.url, b2, { answers: true }),
      await scriptedDevice(cluster.broker.url, b3, { answers: true }),
    ];
    scripted.push(...devices);
    const online = async () =>
      (
        await cluster.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND online_status = 1", [
          [b1.id, b2.id, b3.id],
        ])
      ).rows[0]?.n;
    await expect.poll(online, { timeout: 15_000 }).toBe(3);

    // The operation is asked of process 0 (the one a browser's request reached), which sends it.
    const bulk = await cluster.apiOf(0).post<{ bulkId: number }>("/admin/param/set/bulk", {
      filter: { deviceIds: [b1.id, b2.id, b3.id] },
      command: 4,
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const outcome = async () =>
      (
        await cluster.api.get<{ counts: Record<string, number>; records: { sn: string; refusal: string | null }[] }>(
          `/admin/param/set/bulk/outcome?bulkId=${bulk.body.data.bulkId}&size=10`,
        )
      ).body.data;
    await expect.poll(() => devices[0]?.received("cmd/command").length, { timeout: 10_000 }).toBe(1);

    await cluster.kill(0);
    // B1's command ends timed out, B2 and B3 get theirs once each from another process.
    await expect
      .poll(async () => (await outcome()).counts, { timeout: 30_000, interval: 500 })
      .toEqual({
        timed_out: 1,
        acknowledged: 2,
      });
    expect((await outcome()).records.find((r) => r.sn === b1.sn)?.refusal).toBe("timeout");
    expect(devices.map((d) => d.received("cmd/command").length)).toEqual([1, 1, 1]);
    await cluster.restart(0);
  }, 90_000);

  it("during an OTA campaign: the campaign finishes, every device upgraded once", async () => {
    const fleet = await connectFleet(cluster.db, cluster.broker.url, 12, { prefix: "KOTA", otaStepMs: 150 });
    fleetStop = fleet.stop;
    const { versionId } = await addFirmware(cluster.api, { versionCode: "2.01", bytes: firmwareBytes(32 * 1024, 9) });
    const launched = await cluster.api.post<CampaignView>("/admin/lsyupgrade/issued", {
      name: "Through a killed process",
      versionId,
      times: [new Date().toISOString()],
      batchSize: 3,
      batchIntervalS: 1,
      filter: { sn: fleet.prefix },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const id = launched.body.data.id;
    await expect
      .poll(async () => (await cluster.api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data.counts.succeeded, {
        timeout: 60_000,
        interval: 250,
      })
      .toBeGreaterThanOrEqual(3);

    // The process leading the OTA dispatcher, if one leads it; else the last.
    const leads = await Promise.all([0, 1, 2].map((i) => cluster.metric(i, "ess_job_leader", '{job="ota"}')));
    const victim = Math.max(0, leads.indexOf(1)) || 2;
    // Not started again until the campaign is over: the others take its jobs and its broker session over.
    await cluster.kill(victim);

    const done = await campaignDone(cluster.api, id, 120_000);
    const causes = (
      await cluster.db.query<{ cause: string }>("SELECT cause FROM device_upgrade WHERE campaign_id = $1 AND status = 3", [id])
    ).rows.map((r) => r.cause);
    expect(causes).toEqual([]);
    expect(done.counts.succeeded).toBe(12);
    expect(fleet.devices.every((d) => d.sim.brain.condition.firmware === 201)).toBe(true);
    expect(fleet.devices.every((d) => d.sim.upgradesRun === 1)).toBe(true);
    await cluster.restart(victim);
  }, 240_000);

  it("a console connected to a surviving process still gets live pushes and reminders", async () => {
    const device = await register("KLIVE");
    const admin = (await cluster.db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'admin'")).rows[0]?.id ?? 0;
    const live = deviceLiveDestination(device.id, "backOffice");
    const reminders = reminderDestination(1, admin);
    const onFirst = await consoleOn(cluster.processes[0]?.url ?? "", cluster.token, [live, reminders]);
    try {
      const reporting = await scriptedDevice(cluster.broker.url, device, { reportEveryMs: 200 });
      scripted.push(reporting);
      await expect.poll(() => onFirst.messages.get(live)?.length ?? 0, { timeout: 15_000 }).toBeGreaterThan(2);

      // The process killed is not the console's; whichever of the others takes the device's frames in,
      // the console's process pushes them, and reminds of what another process noticed.
      await cluster.kill(2);
      const before = onFirst.messages.get(live)?.length ?? 0;
      await expect.poll(() => onFirst.messages.get(live)?.length ?? 0, { timeout: 15_000 }).toBeGreaterThan(before + 10);
      const remindersBefore = onFirst.messages.get(reminders)?.length ?? 0;
      // Gone without a word: the broker publishes its last will, and the console is reminded it went off line.
      await reporting.stop();
      await expect.poll(() => onFirst.messages.get(reminders)?.length ?? 0, { timeout: 20_000 }).toBeGreaterThan(remindersBefore);
    } finally {
      await onFirst.close();
      await cluster.restart(2);
    }
  }, 90_000);

  it("leaves no record open past its timeout", async () => {
    const { rows } = await cluster.db.query<{ kind: string; n: number }>(
      `SELECT 'write' AS kind, count(*)::int AS n FROM device_write WHERE state IN ('queued', 'sent') AND created_at < now() - interval '30 seconds'
       UNION ALL
       SELECT 'upgrade', count(*)::int FROM device_upgrade WHERE status IN (0, 1, 2) AND created_at < now() - interval '2 minutes'`,
    );
    expect(rows).toEqual([
      { kind: "write", n: 0 },
      { kind: "upgrade", n: 0 },
    ]);
  });
});
