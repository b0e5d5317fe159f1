import { type DeviceWriteMessage, deviceWritesDestination } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, Queryable } from "../../src/db/db.ts";
import { endOverdueWrites } from "../../src/modules/settings/write-sweep.repository.ts";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { type ScriptedDevice, scriptedDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

type Rec = { id: number; state: string; refusal: string | null; refusalText: string | null };

/**
 * A write as the process that sent or queued it left it (the process is gone: nobody here waits
 * for its answer). `sentAgoS`/`deadlineInS` for a sent one; `createdAgoS` for a queued one.
 */
async function leftBehind(
  db: Queryable,
  w: {
    deviceId: number;
    state: "sent" | "queued";
    deadlineInS?: number;
    createdAgoS?: number;
    expiresInS?: number;
    bulkId?: number | null;
    kind?: "setting" | "command";
  },
) {
  const { rows } = await db.query<{ id: number; request_id: number | null }>(
    `INSERT INTO device_write (tenant_id, device_id, bulk_id, kind, changes, command, state, attempts, created_at, sent_at,
                               request_id, deadline_at, expires_at, created_by_name)
     VALUES (1, $1, $2, $3, $4, $5, $6, CASE WHEN $6 = 'sent' THEN 1 ELSE 0 END, now() - make_interval(secs => $7),
             CASE WHEN $6 = 'sent' THEN now() END, CASE WHEN $6 = 'sent' THEN nextval('device_write_request_seq') END,
             CASE WHEN $6 = 'sent' THEN now() + make_interval(secs => $8) END, now() + make_interval(secs => $9), 'operator')
     RETURNING id, request_id`,
    [
      w.deviceId,
      w.bulkId ?? null,
      w.kind ?? "setting",
      JSON.stringify(w.kind === "command" ? [] : [{ key: "TP_0X03_72", old: 0, new: 3 }]),
      w.kind === "command" ? 4 : null,
      w.state,
      w.createdAgoS ?? 0,
      w.deadlineInS ?? 0,
      w.expiresInS ?? 3600,
    ],
  );
  return rows[0] as { id: number; request_id: number };
}

describe(`the sweep of device records (${TEST_DRIVER})`, () => {
  describe("in the database", () => {
    let db: Db;
    beforeAll(async () => {
      db = await createTestDb();
      await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    });
    afterAll(async () => db?.close());

    it("ends each overdue record once when processes sweep at the same time, and leaves the others", async () => {
      const d = await registerDevice(db, { sn: uniqueSerial("SWP"), phaseType: 2 });
      const overdue = [];
      for (let i = 0; i < 20; i++) overdue.push((await leftBehind(db, { deviceId: d.id, state: "sent", deadlineInS: -1 })).id);
      const waiting = await leftBehind(db, { deviceId: d.id, state: "sent", deadlineInS: 60 });
      const expired = await leftBehind(db, { deviceId: d.id, state: "queued", expiresInS: -1 });
      const sweeps = await Promise.all([endOverdueWrites(db), endOverdueWrites(db), endOverdueWrites(db)]);
      const ended = sweeps.flat().map((r) => r.id);
      expect(ended.toSorted((a, b) => a - b)).toEqual([...overdue, expired.id]);
      const states = await db.query<{ id: number; state: string; refusal: string | null }>(
        "SELECT id, state, refusal FROM device_write WHERE device_id = $1 ORDER BY id",
        [d.id],
      );
      for (const r of states.rows) {
        if (r.id === waiting.id) expect(r).toMatchObject({ state: "sent", refusal: null });
        else if (r.id === expired.id) expect(r).toMatchObject({ state: "timed_out", refusal: "offlineExpired" });
        else expect(r).toMatchObject({ state: "timed_out", refusal: "timeout" });
      }
    });

    it("refuses the offline devices' records of a bulk operation nobody sends any more that was not to wait for them", async () => {
      const offline = await registerDevice(db, { sn: uniqueSerial("SWO"), phaseType: 2 });
      const bulk = async (queueIfOffline: boolean, heldForS: number) =>
        (
          await db.query<{ id: number }>(
            `INSERT INTO device_bulk_operation (tenant_id, payload, filter, total, queue_if_offline, runner_until)
             VALUES (1, '{"command": 4}', '{}', 1, $1, now() + make_interval(secs => $2)) RETURNING id`,
            [queueIfOffline, heldForS],
          )
        ).rows[0]?.id as number;
      const abandoned = await leftBehind(db, {
        deviceId: offline.id,
        state: "queued",
        bulkId: await bulk(false, -1),
        kind: "command",
      });
      const held = await leftBehind(db, {
        deviceId: offline.id,
        state: "queued",
        bulkId: await bulk(false, 60),
        kind: "command",
      });
      const waits = await leftBehind(db, {
        deviceId: offline.id,
        state: "queued",
        bulkId: await bulk(true, -1),
        kind: "command",
      });
      expect((await endOverdueWrites(db)).map((r) => [r.id, r.state, r.refusal])).toEqual([[abandoned.id, "refused", "offline"]]);
      const left = await db.query<{ id: number }>("SELECT id FROM device_write WHERE state = 'queued' ORDER BY id");
      expect(left.rows.map((r) => r.id)).toEqual([held.id, waits.id]);
    });
  });

  describe("in a running console", () => {
    let runtime: Runtime;
    let token = "";
    const devices: ScriptedDevice[] = [];
    const call = apiCaller(
      () => runtime.app,
      () => token,
    );
    const recordOf = async (deviceId: number, id: number) =>
      (await call<{ records: Rec[] }>("GET", `/admin/param/set/records?deviceId=${deviceId}&size=50`)).body.data.records.find(
        (r) => r.id === id,
      );
    const connect = async (prefix: string, options: Parameters<typeof scriptedDevice>[2] = {}) => {
      const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2, timeZone: "Europe/Rome" });
      const device = await scriptedDevice(runtime.brokerUrl, d, { reportEveryMs: 500, ...options });
      devices.push(device);
      await expect
        .poll(
          async () =>
            (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [d.id])).rows[0]?.s,
          { timeout: 10_000 },
        )
        .toBe(1);
      return { id: d.id, device };
    };
    const pushesOf = (deviceId: number) => {
      const pushes: DeviceWriteMessage[] = [];
      runtime.realtime.subscribe(deviceWritesDestination(deviceId), (_destination, body) =>
        pushes.push(JSON.parse(body) as DeviceWriteMessage),
      );
      return pushes;
    };
    const remembered = async (deviceId: number) =>
      (
        await runtime.db.query<{ value: number }>(
          "SELECT value FROM device_setting_value WHERE device_id = $1 AND key = 'TP_0X03_72'",
          [deviceId],
        )
      ).rows[0]?.value;

    beforeAll(async () => {
      runtime = await startTestRuntime({
        ESS_WRITE_SWEEP_MS: "200",
        ESS_PAGE_READ_TIMEOUT_MS: "1500",
        ESS_BULK_CONCURRENCY: "2",
        ESS_SELF_CHECK_TIMEOUT_S: "1",
        ESS_REPEAT_GUARD_MS: "0",
      });
      token = await signIn(runtime.app);
    }, 60_000);
    afterAll(async () => {
      await Promise.all(devices.map((d) => d.stop()));
      await runtime?.close();
    });

    it("ends a write its stopped sender left sent at its deadline, pushes it, and a late answer does not reopen it", async () => {
      const w = await connect("SWL");
      const pushes = pushesOf(w.id);
      const left = await leftBehind(runtime.db, { deviceId: w.id, state: "sent", deadlineInS: 1 });
      await expect.poll(async () => (await recordOf(w.id, left.id))?.state, { timeout: 5000 }).toBe("timed_out");
      expect(await recordOf(w.id, left.id)).toMatchObject({
        refusal: "timeout",
        refusalText: "The device did not answer in time; the outcome is unknown",
      });
      expect(pushes).toContainEqual(expect.objectContaining({ id: left.id, state: "timed_out", refusal: "timeout" }));
      // The device answers after all: the record stays timed out, the value it now holds is kept.
      await w.device.ack(left.request_id);
      expect((await recordOf(w.id, left.id))?.state).toBe("timed_out");
      expect(await remembered(w.id)).toBe(3);
      expect(pushes.filter((p) => p.id === left.id).map((p) => p.state)).not.toContain("acknowledged");
    });

    it("ends a write by the device's answer in a process that did not send it (acknowledged or refused)", async () => {
      const w = await connect("SWA");
      const pushes = pushesOf(w.id);
      const taken = await leftBehind(runtime.db, { deviceId: w.id, state: "sent", deadlineInS: 30 });
      const refused = await leftBehind(runtime.db, { deviceId: w.id, state: "sent", deadlineInS: 30 });
      await w.device.ack(taken.request_id);
      await w.device.ack(refused.request_id, false);
      expect(await recordOf(w.id, taken.id)).toMatchObject({ state: "acknowledged", refusal: null });
      expect(await recordOf(w.id, refused.id)).toMatchObject({ state: "refused", refusal: "unsupported" });
      expect(await remembered(w.id)).toBe(3);
      expect(pushes.map((p) => [p.id, p.state])).toEqual([
        [taken.id, "acknowledged"],
        [refused.id, "refused"],
      ]);
    });

    it("sends what a stopped process left queued to online devices, one at a time per device and in order; a held bulk waits", async () => {
      const a = await connect("SWQA", { answers: true });
      const b = await connect("SWQB", { answers: true });
      const c = await connect("SWQC", { answers: true });
      const bulk = async (heldForS: number) =>
        (
          await runtime.db.query<{ id: number }>(
            `INSERT INTO device_bulk_operation (tenant_id, payload, filter, total, queue_if_offline, runner_until)
             VALUES (1, '{"command": 4}', '{}', 1, true, now() + make_interval(secs => $1)) RETURNING id`,
            [heldForS],
          )
        ).rows[0]?.id as number;
      // a: its queue half sent; b: its record of a bulk operation whose holder is gone; c: a bulk still held.
      const first = await leftBehind(runtime.db, { deviceId: a.id, state: "queued", createdAgoS: 10 });
      const second = await leftBehind(runtime.db, { deviceId: a.id, state: "queued", createdAgoS: 9, kind: "command" });
      const orphan = await leftBehind(runtime.db, { deviceId: b.id, state: "queued", createdAgoS: 10, bulkId: await bulk(-1) });
      const heldBulk = await bulk(2);
      const held = await leftBehind(runtime.db, { deviceId: c.id, state: "queued", createdAgoS: 10, bulkId: heldBulk });
      await expect.poll(async () => (await recordOf(a.id, second.id))?.state, { timeout: 5000 }).toBe("acknowledged");
      expect((await recordOf(a.id, first.id))?.state).toBe("acknowledged");
      await expect.poll(async () => (await recordOf(b.id, orphan.id))?.state, { timeout: 5000 }).toBe("acknowledged");
      expect(a.device.orders.filter((o) => o.leaf !== "cmd/read").map((o) => o.leaf)).toEqual(["cmd/write", "cmd/command"]);
      // Held: nobody else sends it until the hold lapses.
      expect((await recordOf(c.id, held.id))?.state).toBe("queued");
      await expect.poll(async () => (await recordOf(c.id, held.id))?.state, { timeout: 5000 }).toBe("acknowledged");
      expect(c.device.received("cmd/write")).toHaveLength(1);
    });

    it("fails a self-check the device never reports the end of at its deadline, with cause timeout", async () => {
      const x = await connect("SWC", { answers: true });
      const started = await call<{ id: number; state: number }>("POST", "/admin/device/selfcheck/start", { deviceId: x.id });
      expect(started.body.data).toMatchObject({ state: 1 });
      const latest = async () =>
        (
          await call<{ records: { id: number; state: number; cause: string | null }[] }>(
            "GET",
            `/admin/device/selfcheck/page?deviceId=${x.id}`,
          )
        ).body.data.records[0];
      expect(await latest()).toMatchObject({ state: 1, cause: null });
      await expect
        .poll(
          async () =>
            (
              await runtime.db.query<{ state: number }>("SELECT state FROM device_self_check WHERE id = $1", [
                started.body.data.id,
              ])
            ).rows[0]?.state,
          { timeout: 5000 },
        )
        .toBe(2);
      expect(await latest()).toMatchObject({ state: 2, cause: "timeout" });
      const report = await runtime.app.inject({
        method: "GET",
        url: `/admin/device/selfcheck/report?deviceId=${x.id}`,
        headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
      });
      expect(report.body).toContain("Self-test failed: The device did not answer in time; the outcome is unknown");
    });
  });
});
