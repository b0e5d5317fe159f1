import { type AlarmNotice, REMINDER_PATTERN } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { sendReminder } from "../realtime/realtime.routes.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { dataScope } from "../scope/data-scope.ts";
import type { Log } from "../telemetry/log.ts";
import type { OpenedAlarm } from "./alarm-apply.ts";
import type { FaultCatalogueCache } from "./fault-cache.ts";
import { type StormTopic, stormCount, stormWindowStart, topicKey } from "./storm-windows.ts";

interface Preference {
  levels: number[];
  onlineEvents: boolean;
}
const DEFAULT_PREFERENCE: Preference = { levels: [1, 2, 3], onlineEvents: true };

/** One thing to remind of: an alarm that opened, or a device that came on or went off line. */
interface Item {
  topic: StormTopic;
  tenantId: number;
  deviceId: number;
  sn: string;
  /** Server time it happened (what storm windows count). */
  at: number;
  alarm: OpenedAlarm | null;
}

/** A storm window in which this process sent summaries: to whom, with which count, for the follow-up. */
interface Summarised {
  tenantId: number;
  topic: StormTopic;
  from: number;
  level: number | null;
  systemType: 1 | 2;
  users: Map<number, { caller: AuthContext; told: number }>;
}

/**
 * Live reminders of new alarms and on/off-line events to the users who have a console open (the
 * gateway's reminder subscribers): each receives what concerns devices in its data scope (the one
 * scope function, asked once per user and flush), of the levels it chose, for codes the alarm
 * control shows.
 *
 * Storms: when many devices of a tenant raise one code, or come on or go off line (a broker
 * restart reconnects a whole fleet), within a window, a user whose scope holds at least
 * `stormDevices` of them gets one summary instead of a reminder per device, and at the window's
 * end a follow-up if more devices joined after it, so that every device of the window is counted.
 * Windows and counts come from the database (alarms opened, the on/off-line log), so all console
 * processes count the same devices.
 */
export function createAlarmNotifier(deps: {
  db: Queryable;
  hub: RealtimeHub;
  catalogue: FaultCatalogueCache;
  /** Fallback title and content for clients that do not read `notice`. */
  t: Translate;
  log: Log;
  stormDevices: number;
  stormWindowMs: number;
  flushMs?: number;
}) {
  let alarms: OpenedAlarm[] = [];
  let statuses: { deviceId: number; online: boolean; at: number }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const summarised = new Map<string, Summarised>();
  const followUps = new Set<NodeJS.Timeout>();
  const windowS = Math.round(deps.stormWindowMs / 1000);

  const serially = (what: string, fn: () => Promise<void>) => {
    running = running.then(fn).catch((error) => deps.log.error({ err: error }, `${what} failed`));
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      serially("alarm reminders", flush);
    }, deps.flushMs ?? 200);
    timer.unref();
  };

  async function preferences(userIds: number[]): Promise<Map<number, Preference>> {
    const { rows } = await deps.db.query<{ user_id: number; levels: number[]; online_events: boolean }>(
      "SELECT user_id, levels, online_events FROM alarm_preference WHERE user_id = ANY($1::bigint[])",
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id, { levels: r.levels, onlineEvents: r.online_events }]));
  }

  async function devicesInScope(caller: AuthContext, ids: number[]): Promise<Set<number>> {
    const { rows } = await run<{ id: number }>(
      deps.db,
      sql`SELECT d.id FROM device d WHERE d.id = ANY(${ids}::bigint[]) AND d.deleted_at IS NULL AND ${dataScope(caller).devices("d")}`,
    );
    return new Set(rows.map((r) => r.id));
  }

  const send = (caller: AuthContext, notice: AlarmNotice, title: string, content: string) =>
    sendReminder(deps.hub, caller.tenantId, caller.userId, { title, content, from: null, notice });

  async function sendOne(caller: AuthContext, item: Item) {
    if (item.alarm) {
      const a = item.alarm;
      const info = await deps.catalogue.info(a.tenantId, a.code, a.systemType);
      const notice: AlarmNotice = {
        kind: "alarm",
        deviceId: a.deviceId,
        sn: a.sn,
        code: a.code,
        level: a.level,
        devices: null,
        info,
      };
      send(
        caller,
        notice,
        deps.t("alarms:notice.alarmTitle", { level: a.level }),
        deps.t("alarms:notice.alarmContent", { sn: a.sn, code: a.code, info: info["en-US"] ?? "" }),
      );
      return;
    }
    const online = item.topic.kind === "online";
    const notice: AlarmNotice = {
      kind: online ? "online" : "offline",
      deviceId: item.deviceId,
      sn: item.sn,
      code: null,
      level: null,
      devices: null,
      info: null,
    };
    send(
      caller,
      notice,
      deps.t(online ? "alarms:notice.onlineTitle" : "alarms:notice.offlineTitle"),
      deps.t(online ? "alarms:notice.onlineContent" : "alarms:notice.offlineContent", { sn: item.sn }),
    );
  }

  async function sendStorm(caller: AuthContext, w: Summarised, devices: number, final: boolean) {
    const topic = w.topic;
    if (topic.kind === "alarm") {
      const info = await deps.catalogue.info(w.tenantId, topic.code, w.systemType);
      send(
        caller,
        { kind: "storm", deviceId: null, sn: null, code: topic.code, level: w.level, devices, info, windowS, final },
        deps.t("alarms:notice.stormTitle"),
        deps.t(final ? "alarms:notice.stormFinalContent" : "alarms:notice.stormContent", {
          code: topic.code,
          devices,
          seconds: windowS,
        }),
      );
      return;
    }
    const kind = topic.kind === "online" ? "onlineStorm" : "offlineStorm";
    send(
      caller,
      { kind, deviceId: null, sn: null, code: null, level: null, devices, info: null, windowS, final },
      deps.t(`alarms:notice.${kind}Title`),
      deps.t(final ? `alarms:notice.${kind}FinalContent` : `alarms:notice.${kind}Content`, { devices, seconds: windowS }),
    );
  }

  /** Everything of one tenant's topic that fell in one storm window, for the users subscribed. */
  async function remind(
    tenantId: number,
    topic: StormTopic,
    from: number,
    items: Item[],
    recipients: { caller: AuthContext; pref: Preference; visible: Set<number> }[],
  ) {
    const to = from + deps.stormWindowMs;
    const total = await stormCount(deps.db, tenantId, topic, from, to, null);
    const key = `${tenantId}|${topicKey(topic)}|${from}`;
    const level = items[0]?.alarm?.level ?? null;
    for (const { caller, pref, visible } of recipients) {
      if (caller.tenantId !== tenantId) continue;
      if (level !== null ? !pref.levels.includes(level) : !pref.onlineEvents) continue;
      const mine = items.filter((i) => visible.has(i.deviceId));
      if (mine.length === 0) continue;
      const told = summarised.get(key)?.users.get(caller.userId);
      if (told) continue; // summarised already: the follow-up counts the rest
      const devices =
        total < deps.stormDevices ? 0 : await stormCount(deps.db, tenantId, topic, from, to, dataScope(caller).devices("d"));
      if (devices < deps.stormDevices) {
        for (const item of mine) await sendOne(caller, item);
        continue;
      }
      let w = summarised.get(key);
      if (!w) {
        w = { tenantId, topic, from, level, systemType: items[0]?.alarm?.systemType ?? 2, users: new Map() };
        summarised.set(key, w);
        const t = setTimeout(
          () => {
            followUps.delete(t);
            serially("storm follow-up", () => followUp(key));
          },
          Math.max(0, to + FOLLOW_UP_GRACE_MS - Date.now()),
        );
        t.unref();
        followUps.add(t);
      }
      w.users.set(caller.userId, { caller, told: devices });
      await sendStorm(caller, w, devices, false);
    }
  }

  /** At a window's end: users told a count that the window outgrew get the window's whole count. */
  async function followUp(key: string) {
    const w = summarised.get(key);
    summarised.delete(key);
    if (!w) return;
    const to = w.from + deps.stormWindowMs;
    for (const { caller, told } of w.users.values()) {
      const devices = await stormCount(deps.db, w.tenantId, w.topic, w.from, to, dataScope(caller).devices("d"));
      if (devices > told) await sendStorm(caller, w, devices, true);
    }
  }

  async function flush() {
    const newAlarms = alarms.splice(0);
    const newStatuses = statuses.splice(0);
    const subscribers = deps.hub.subscribed(REMINDER_PATTERN);
    if (subscribers.length === 0) return;
    const items: Item[] = [];
    for (const a of newAlarms) {
      if (!(await deps.catalogue.shown(a.tenantId, a.code, a.systemType))) continue;
      items.push({
        topic: { kind: "alarm", code: a.code },
        tenantId: a.tenantId,
        deviceId: a.deviceId,
        sn: a.sn,
        at: a.openedSeenAt,
        alarm: a,
      });
    }
    if (newStatuses.length > 0) {
      const { rows } = await deps.db.query<{ id: number; sn: string; tenant_id: number }>(
        "SELECT id, sn, tenant_id FROM device WHERE id = ANY($1::bigint[])",
        [[...new Set(newStatuses.map((s) => s.deviceId))]],
      );
      const devices = new Map(rows.map((r) => [r.id, r]));
      for (const s of newStatuses) {
        const d = devices.get(s.deviceId);
        if (d)
          items.push({
            topic: { kind: s.online ? "online" : "offline" },
            tenantId: d.tenant_id,
            deviceId: d.id,
            sn: d.sn,
            at: s.at,
            alarm: null,
          });
      }
    }
    if (items.length === 0) return;

    const callers = subscribers.flatMap((s) => {
      const c = s.callers[0];
      return c &&
        String(c.tenantId) === s.params.tenantId &&
        String(c.userId) === s.params.userId &&
        c.permissions.has("alarm.view")
        ? [c]
        : [];
    });
    if (callers.length === 0) return;
    const prefs = await preferences(callers.map((c) => c.userId));
    const deviceIds = [...new Set(items.map((i) => i.deviceId))];
    const recipients = [];
    for (const caller of callers) {
      recipients.push({
        caller,
        pref: prefs.get(caller.userId) ?? DEFAULT_PREFERENCE,
        visible: await devicesInScope(caller, deviceIds),
      });
    }

    const groups = new Map<string, Item[]>();
    for (const item of items) {
      const key = `${item.tenantId}|${topicKey(item.topic)}`;
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    for (const group of groups.values()) {
      group.sort((a, b) => a.at - b.at);
      const { tenantId, topic } = group[0] as Item;
      // Usually one window; a flush straddling a window's end has the next one start with its items.
      while (group.length > 0) {
        const from = await stormWindowStart(deps.db, tenantId, topic, (group[0] as Item).at, deps.stormWindowMs);
        const upTo = group.findIndex((i) => i.at >= from + deps.stormWindowMs);
        const inWindow = group.splice(0, upTo < 0 ? group.length : Math.max(1, upTo));
        await remind(tenantId, topic, from, inWindow, recipients);
      }
    }
  }

  return {
    opened(list: OpenedAlarm[]) {
      alarms.push(...list);
      schedule();
    },
    /** Devices whose online status changed at `at` (server time, as written to the on/off-line log). */
    status(deviceIds: number[], status: number, at = Date.now()) {
      if (status === 2) return;
      for (const deviceId of deviceIds) statuses.push({ deviceId, online: status === 1, at });
      schedule();
    },
    /** Resolves once everything queued so far was sent (follow-ups at a window's end come later). */
    async settled() {
      while (timer || alarms.length > 0 || statuses.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await running;
      }
      await running;
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const t of followUps) clearTimeout(t);
      followUps.clear();
      alarms = [];
      statuses = [];
    },
  };
}

/** A window's follow-up waits this long past its end for alarms stored at its last moment. */
const FOLLOW_UP_GRACE_MS = 1000;

export type AlarmNotifier = ReturnType<typeof createAlarmNotifier>;
