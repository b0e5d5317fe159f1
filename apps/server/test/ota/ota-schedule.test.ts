import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";
import { addFirmware, apiAs, type CampaignView, campaignDone, connectFleet, firmwareBytes } from "./ota-world.ts";

/** The OTA schedule (up to three times), pause, resume and cancel, and devices offline at a time. */
describe("campaign schedules and controls", () => {
  let runtime: Runtime;
  let token = "";
  let fleet: Awaited<ReturnType<typeof connectFleet>>;
  const api = apiAs(
    () => runtime.app,
    () => token,
  );
  const info = async (id: number) => (await api.get<CampaignView>(`/admin/lsyupgrade/info?id=${id}`)).body.data;
  const ordersSent = async (id: number) =>
    (
      await runtime.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM device_upgrade WHERE campaign_id = $1 AND attempts > 0",
        [id],
      )
    ).rows[0]?.n;
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_OTA_TICK_MS: "200", ESS_OTA_OFFLINE_GIVEUP_S: "20", ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    fleet = await connectFleet(runtime.db, runtime.brokerUrl, 4, { prefix: "SCHED", otaStepMs: 50 });
  }, 60_000);
  afterAll(async () => {
    await fleet?.stop();
    await runtime?.close();
  });

  it("waits for its time, holds while paused, goes on when resumed; a cancelled one orders nobody more", async () => {
    const { versionId } = await addFirmware(api, { versionCode: "4.01", bytes: firmwareBytes(4096, 21) });
    const launch = (name: string, times: string[]) =>
      api.post<CampaignView>("/admin/lsyupgrade/issued", {
        name,
        versionId,
        times,
        batchSize: 10,
        batchIntervalS: 0,
        filter: { sn: fleet.prefix },
      });

    const later = (await launch("Tonight", [inSeconds(60)])).body.data;
    expect(later).toMatchObject({ state: "scheduled", counts: { total: 4, pending: 4 } });
    // While devices are to get it, the version keeps its package and cannot be deleted.
    const other = await api.upload("other.bin", firmwareBytes(4096, 99));
    const edit = await api.post("/admin/app/version/edit", {
      id: versionId,
      type: 3,
      versionCode: "4.01",
      versionName: "Swapped",
      fileId: other.body.data.fileId,
    });
    expect(edit.body.msg).toBe("Upgrades to this version are under way; it cannot be deleted or given another package now");
    expect((await api.post("/admin/app/version/del", { id: versionId })).body.code).toBe(1);
    // Devices with an upgrade of this firmware waiting are not taken twice.
    const twice = await launch("Twice", [inSeconds(1)]);
    expect(twice.body.msg).toBe("None of the chosen devices can take this version");
    const cancelled = (await api.post<CampaignView>("/admin/lsyupgrade/cancel", { id: later.id })).body.data;
    expect(cancelled).toMatchObject({ state: "cancelled", counts: { failed: 4, pending: 0 } });
    expect(await ordersSent(later.id)).toBe(0);
    const causes = await runtime.db.query<{ cause: string }>("SELECT DISTINCT cause FROM device_upgrade WHERE campaign_id = $1", [
      later.id,
    ]);
    expect(causes.rows.map((r) => r.cause)).toEqual(["cancelled"]);
    const refused = await api.post("/admin/lsyupgrade/pause", { id: later.id });
    expect(refused.body.msg).toBe("The campaign cannot do that in its current state");

    const soon = (await launch("Soon", [inSeconds(2)])).body.data;
    await api.post("/admin/lsyupgrade/pause", { id: soon.id });
    expect((await info(soon.id)).state).toBe("paused");
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // Its time has come and gone while paused: nothing was ordered.
    expect(await ordersSent(soon.id)).toBe(0);
    // Resumed, it waits for its time again; that time has passed, so the dispatcher (woken by the
    // resume) may already have started it by the time the answer is read.
    const resumed = (await api.post<CampaignView>("/admin/lsyupgrade/resume", { id: soon.id })).body.data.state;
    expect(["scheduled", "running"]).toContain(resumed);
    const done = await campaignDone(api, soon.id, 60_000);
    expect(done.counts).toMatchObject({ total: 4, succeeded: 4 });
  }, 120_000);

  it("a device offline at the first time is upgraded at the next one", async () => {
    const { versionId } = await addFirmware(api, { versionCode: "4.02", bytes: firmwareBytes(4096, 22) });
    const away = fleet.devices[3] as (typeof fleet.devices)[number];
    const back = away.sim.restart(7000);
    await expect
      .poll(async () => (await runtime.db.query("SELECT online_status AS s FROM device WHERE id = $1", [away.id])).rows[0]?.s)
      .toBe(0);
    const second = inSeconds(4);
    const launched = await api.post<CampaignView>("/admin/lsyupgrade/issued", {
      name: "Two times",
      versionId,
      times: [inSeconds(0), second],
      batchSize: 10,
      batchIntervalS: 0,
      filter: { sn: fleet.prefix },
    });
    expect(launched.body.data.counts.total).toBe(4);
    await back;
    const done = await campaignDone(api, launched.body.data.id, 60_000);
    expect(done.counts).toMatchObject({ total: 4, succeeded: 4, failed: 0 });
    const sent = await runtime.db.query<{ sent_at: Date }>(
      "SELECT sent_at FROM device_upgrade WHERE campaign_id = $1 AND device_id = $2",
      [launched.body.data.id, away.id],
    );
    expect(sent.rows[0]?.sent_at.getTime()).toBeGreaterThanOrEqual(new Date(second).getTime());
  }, 120_000);
});
