import { type DeviceLiveMessage, deviceLiveDestination, type ReminderMessage, reminderDestination } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterRefusedError } from "../../src/cluster/open-bus.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { consoleOn as consoleAt } from "../helpers/live-console.ts";
import { MOSQUITTO, type OwnMosquitto, ownMosquitto } from "../helpers/mosquitto.ts";
import { adminId, waitUntil } from "../helpers/reminders.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { rawDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";
import { freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";

type Database = NonNullable<Awaited<ReturnType<typeof freshDatabaseUrl>>>;

/** A console's live-push connection to one process. */
const consoleOn = (runtime: Runtime, token: string, destinations: string[]) => consoleAt(runtime.url, token, destinations);

/** Two consoles on one database and one broker, as a load balancer would put them behind one address. */
async function twoConsoles(database: Database, broker: OwnMosquitto, env: Record<string, string> = {}) {
  const shared = { DATABASE_URL: database.url, MQTT_URL: broker.url, MQTT_SHARED_GROUP: `ess-events-${process.pid}`, ...env };
  const a = await startTestRuntime({ ...shared, MQTT_CLIENT_ID: `ess-events-a-${process.pid}` });
  const b = await startTestRuntime({ ...shared, MQTT_CLIENT_ID: `ess-events-b-${process.pid}` }).catch(async (error) => {
    await a.close();
    throw error;
  });
  return [a, b] as const;
}

const api = async (runtime: Runtime, path: string, token: string, body?: unknown) => {
  const response = await fetch(new URL(path, runtime.url), {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data: unknown } };
};

// Several consoles on one database need a database server (PGlite is one process's alone) and a
// broker they share (a Mosquitto of the test's own).
describe.skipIf(TEST_DRIVER !== "postgres" || !MOSQUITTO)("two console processes on one PostgreSQL", () => {
  let database: Database;
  let broker: OwnMosquitto;
  let a: Runtime;
  let b: Runtime;
  beforeAll(async () => {
    database = (await freshDatabaseUrl()) as Database;
    broker = await ownMosquitto({ persistence: false });
    // A session is reused for a minute without asking the database: only the sign-out's notice can end it sooner.
    // The tests sign in to each process more than once a second (the repeat guard is a process's own).
    [a, b] = await twoConsoles(database, broker, { ESS_SESSION_CACHE_S: "60", ESS_REPEAT_GUARD_MS: "0" });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await broker?.stop("SIGTERM");
    await database?.drop();
  });

  it("a console connected to one process gets the live data, alarm reminders and reminders caused in the other", async () => {
    const device = await registerDevice(a.db, { sn: uniqueSerial("EVT"), phaseType: 2, timeZone: "Europe/Rome" });
    const admin = await adminId(a);
    const live = deviceLiveDestination(device.id, "backOffice");
    const reminders = reminderDestination(1, admin);
    const onB = await consoleOn(b, await signIn(b.app), [live, reminders]);
    try {
      // A learns that B watches the device before it has anything to push.
      await waitUntil(() => a.realtime.subscriberCount(live) === 1, 5000, "A knowing of B's subscriber");
      await a.telemetry.presence.setStatus([device.id], 1, "message");
      await expect
        .poll(() => (onB.messages.get(live) as DeviceLiveMessage[]).some((m) => m.onlineStatus === 1), { timeout: 5000 })
        .toBe(true);
      // The alarm side of A saw the device come online; B reminds the user whose console it serves.
      await expect
        .poll(() => (onB.messages.get(reminders) as ReminderMessage[]).find((m) => m.notice?.kind === "online")?.notice?.sn, {
          timeout: 5000,
        })
        .toBe(device.sn);
      // A reminder sent through A reaches the user's console on B.
      const sent = await api(a, "/act/reminders", await signIn(a.app), { userId: admin, title: "Hello", content: "from A" });
      expect(sent.body).toMatchObject({ code: 0, data: { delivered: 1 } });
      await expect
        .poll(() => (onB.messages.get(reminders) as ReminderMessage[]).find((m) => m.title === "Hello")?.content, {
          timeout: 5000,
        })
        .toBe("from A");
      expect((onB.messages.get(reminders) as ReminderMessage[]).filter((m) => m.title === "Hello")).toHaveLength(1);
    } finally {
      await onB.close();
    }
    // B's console left: A stops counting it.
    await waitUntil(() => a.realtime.subscriberCount(live) === 0, 5000, "A forgetting B's subscriber");
  });

  it("an alarm a device raises reaches the consoles on both processes once, whichever took it in", async () => {
    const device = await registerDevice(a.db, { sn: uniqueSerial("EVTA"), phaseType: 2 });
    const reminders = reminderDestination(1, await adminId(a));
    const consoles = [await consoleOn(a, await signIn(a.app), [reminders]), await consoleOn(b, await signIn(b.app), [reminders])];
    const connection = await rawDevice(a, device);
    try {
      await waitUntil(() => a.realtime.subscriberCount(reminders) === 2 && b.realtime.subscriberCount(reminders) === 2, 5000);
      // The broker hands the event to one of the two processes (a shared subscription).
      await connection.publishAsync(
        `ess/v1/${device.sn}/alarm`,
        JSON.stringify({ v: 1, ts: Date.now(), key: "TP_0X04_4639", bit: 3, level: 2, state: "occur", code: 4242 }),
        { qos: 1 },
      );
      const alarmsOn = (i: number) =>
        ((consoles[i]?.messages.get(reminders) ?? []) as ReminderMessage[]).filter(
          (m) => m.notice?.kind === "alarm" && m.notice.sn === device.sn,
        );
      await expect.poll(() => [alarmsOn(0).length, alarmsOn(1).length], { timeout: 10_000 }).toEqual([1, 1]);
      await Promise.all([a.faults.notifier.settled(), b.faults.notifier.settled()]);
      expect([alarmsOn(0).length, alarmsOn(1).length]).toEqual([1, 1]);
      expect(alarmsOn(1)[0]?.notice?.code).toBe(4242);
    } finally {
      await connection.endAsync();
      for (const c of consoles) await c.close();
    }
  });

  it("a sign-out in one process ends the session in the other at once", async () => {
    const token = await signIn(a.app);
    expect((await api(b, "/sys/user/info", token)).body.code).toBe(0);
    expect((await api(a, "/sys/logout", token, {})).body.code).toBe(0);
    await expect.poll(async () => (await api(b, "/sys/user/info", token)).status, { timeout: 3000 }).toBe(401);
  });

  it("a device's time zone changed through one process is what the other's ingest uses", async () => {
    const device = await registerDevice(a.db, { sn: uniqueSerial("EVTZ"), timeZone: "Europe/Rome" });
    expect((await b.telemetry.directory.resolve([device.sn])).get(device.sn)?.timeZone).toBe("Europe/Rome");
    await a.db.query("UPDATE device SET time_zone = 'Asia/Tokyo' WHERE id = $1", [device.id]);
    // B's entry would otherwise live about five minutes.
    await expect
      .poll(async () => (await b.telemetry.directory.resolve([device.sn])).get(device.sn)?.timeZone, { timeout: 3000 })
      .toBe("Asia/Tokyo");
  });

  it("refuses a third console with the embedded broker, in one line", async () => {
    const third = startTestRuntime({ DATABASE_URL: database.url });
    await expect(third).rejects.toThrow(ClusterRefusedError);
    await expect(third).rejects.toThrow(/^Another ESS Console runs on this database.*set MQTT_URL/);
  });
});

describe.skipIf(TEST_DRIVER !== "postgres" || !MOSQUITTO)("a console with the embedded broker on PostgreSQL", () => {
  it("keeps the database to itself: a console with a shared broker is refused beside it", async () => {
    const database = (await freshDatabaseUrl()) as Database;
    const broker = await ownMosquitto({ persistence: false });
    const embedded = await startTestRuntime({ DATABASE_URL: database.url });
    try {
      const second = startTestRuntime({ DATABASE_URL: database.url, MQTT_URL: broker.url });
      await expect(second).rejects.toThrow(/^An ESS Console with the embedded broker runs on this database/);
    } finally {
      await embedded.close();
      await broker.stop("SIGTERM");
      await database.drop();
    }
  }, 30_000);
});
