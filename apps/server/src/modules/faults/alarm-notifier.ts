import { type AlarmNotice, REMINDER_PATTERN } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { sendReminder } from "../realtime/realtime.routes.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { dataScope } from "../scope/data-scope.ts";
import type { Log } from "../telemetry/log.ts";
import type { OpenedAlarm } from "./alarm-detector.ts";
import type { FaultCatalogueCache } from "./fault-cache.ts";

interface Preference {
  levels: number[];
  onlineEvents: boolean;
}
const DEFAULT_PREFERENCE: Preference = { levels: [1, 2, 3], onlineEvents: true };

interface StatusChange {
  deviceId: number;
  online: boolean;
}

/**
 * Live reminders of new alarms and on/off-line events to the users who have a console open (the
 * gateway's reminder subscribers): each receives what concerns devices in its data scope (the one
 * scope function, asked once per user and flush), of the levels it chose, for codes the alarm
 * control shows. When many devices raise the same code within the window (a storm), users get one
 * summary per code and window instead of one reminder per device.
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
  let statuses: StatusChange[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  /** Recent openings per tenant and code, and when each storm was last summarised. */
  const recent = new Map<string, { deviceId: number; at: number }[]>();
  const stormSent = new Map<string, number>();

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      running = running.then(flush).catch((error) => deps.log.error({ err: error }, "alarm reminders failed"));
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

  async function flush() {
    const now = Date.now();
    const newAlarms = alarms.splice(0);
    const newStatuses = statuses.splice(0);
    const shown: OpenedAlarm[] = [];
    for (const a of newAlarms) if (await deps.catalogue.shown(a.tenantId, a.code, a.systemType)) shown.push(a);

    // Storms: count distinct devices per tenant and code within the window.
    const storms = new Map<string, OpenedAlarm[]>();
    const single: OpenedAlarm[] = [];
    for (const a of shown) {
      const key = `${a.tenantId}:${a.code}`;
      const list = (recent.get(key) ?? []).filter((r) => now - r.at < deps.stormWindowMs);
      list.push({ deviceId: a.deviceId, at: now });
      recent.set(key, list);
    }
    for (const a of shown) {
      const key = `${a.tenantId}:${a.code}`;
      const devices = new Set((recent.get(key) ?? []).map((r) => r.deviceId));
      if (devices.size >= deps.stormDevices) storms.set(key, [...(storms.get(key) ?? []), a]);
      else single.push(a);
    }
    for (const [key, list] of recent) if (list.every((r) => now - r.at >= deps.stormWindowMs)) recent.delete(key);

    const subscribers = deps.hub.subscribed(REMINDER_PATTERN);
    if (subscribers.length === 0 || (single.length === 0 && storms.size === 0 && newStatuses.length === 0)) return;
    const deviceIds = [...new Set([...shown.map((a) => a.deviceId), ...newStatuses.map((s) => s.deviceId)])];
    const sns = new Map<number, string>();
    if (newStatuses.length > 0) {
      const { rows } = await deps.db.query<{ id: number; sn: string }>("SELECT id, sn FROM device WHERE id = ANY($1::bigint[])", [
        newStatuses.map((s) => s.deviceId),
      ]);
      for (const r of rows) sns.set(r.id, r.sn);
    }
    const callers = subscribers.flatMap((s) => {
      const c = s.callers[0];
      return c && String(c.tenantId) === s.params.tenantId && String(c.userId) === s.params.userId ? [c] : [];
    });
    const prefs = await preferences(callers.map((c) => c.userId));
    const stormsToSend = [...storms].filter(([key]) => now - (stormSent.get(key) ?? 0) >= deps.stormWindowMs);
    for (const [key] of stormsToSend) stormSent.set(key, now);

    for (const caller of callers) {
      if (!caller.permissions.has("alarm.view")) continue;
      const pref = prefs.get(caller.userId) ?? DEFAULT_PREFERENCE;
      const visible = await devicesInScope(caller, deviceIds);
      if (visible.size === 0) continue;
      const send = (notice: AlarmNotice, title: string, content: string) =>
        sendReminder(deps.hub, caller.tenantId, caller.userId, { title, content, from: null, notice });
      for (const a of single) {
        if (a.tenantId !== caller.tenantId || !visible.has(a.deviceId) || !pref.levels.includes(a.level)) continue;
        const fault = await deps.catalogue.fault(a.tenantId, a.code, a.systemType);
        send(
          {
            kind: "alarm",
            deviceId: a.deviceId,
            sn: a.sn,
            code: a.code,
            level: a.level,
            devices: null,
            info: fault?.info ?? null,
          },
          deps.t("alarms:notice.alarmTitle", { level: a.level }),
          deps.t("alarms:notice.alarmContent", { sn: a.sn, code: a.code, info: fault?.info["en-US"] ?? "" }),
        );
      }
      for (const [, list] of stormsToSend) {
        const first = list[0] as OpenedAlarm;
        if (first.tenantId !== caller.tenantId || !pref.levels.includes(first.level)) continue;
        const key = `${first.tenantId}:${first.code}`;
        const mine = new Set((recent.get(key) ?? []).map((r) => r.deviceId).filter((id) => visible.has(id)));
        for (const a of list) if (visible.has(a.deviceId)) mine.add(a.deviceId);
        if (mine.size === 0) continue;
        const fault = await deps.catalogue.fault(first.tenantId, first.code, first.systemType);
        send(
          {
            kind: "storm",
            deviceId: null,
            sn: null,
            code: first.code,
            level: first.level,
            devices: mine.size,
            info: fault?.info ?? null,
          },
          deps.t("alarms:notice.stormTitle"),
          deps.t("alarms:notice.stormContent", { code: first.code, devices: mine.size }),
        );
      }
      if (!pref.onlineEvents) continue;
      for (const s of newStatuses) {
        if (!visible.has(s.deviceId)) continue;
        const sn = sns.get(s.deviceId) ?? "";
        send(
          { kind: s.online ? "online" : "offline", deviceId: s.deviceId, sn, code: null, level: null, devices: null, info: null },
          deps.t(s.online ? "alarms:notice.onlineTitle" : "alarms:notice.offlineTitle"),
          deps.t(s.online ? "alarms:notice.onlineContent" : "alarms:notice.offlineContent", { sn }),
        );
      }
    }
  }

  return {
    opened(list: OpenedAlarm[]) {
      alarms.push(...list);
      schedule();
    },
    status(deviceIds: number[], status: number) {
      if (status === 2) return;
      for (const deviceId of deviceIds) statuses.push({ deviceId, online: status === 1 });
      schedule();
    },
    /** Resolves once everything queued so far was sent. */
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
      alarms = [];
      statuses = [];
    },
  };
}

export type AlarmNotifier = ReturnType<typeof createAlarmNotifier>;
