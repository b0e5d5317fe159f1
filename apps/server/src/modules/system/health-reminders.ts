import { REMINDER_PATTERN, type SystemNotice } from "@ess/contracts";
import type { ClusterBus } from "../../cluster/bus.ts";
import type { Translate } from "../../i18n/translator.ts";
import { sendReminder } from "../realtime/realtime.routes.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import type { IngestEvent } from "../telemetry/ingest-watchdog.ts";

/**
 * Tells the users who watch the console's health (`sys.health.view`, administrators hold it) that
 * device data stopped reaching this process, or arrives again: a reminder on the live channel to
 * each of their open consoles, with the number of their tenant's devices online. The console words
 * it from `system`; title and content here are for clients that do not. With a cluster bus, the
 * consoles served by the other processes hear of it too.
 */
export function createHealthReminders(deps: { hub: RealtimeHub; t: Translate; client: string; cluster?: ClusterBus }) {
  // `client`: the process whose ingest stalled, which may be another than this one.
  const remind = (event: IngestEvent, client = deps.client) => {
    for (const s of deps.hub.subscribed(REMINDER_PATTERN)) {
      const caller = s.callers[0];
      if (!caller || String(caller.tenantId) !== s.params.tenantId || String(caller.userId) !== s.params.userId) continue;
      if (!caller.permissions.has("sys.health.view")) continue;
      const system: SystemNotice = {
        kind: event.kind === "stalled" ? "ingestStalled" : "ingestResumed",
        client,
        silentS: event.silentS,
        devices: event.onlineByTenant.get(caller.tenantId) ?? 0,
      };
      const values = { client: system.client, seconds: system.silentS, devices: system.devices };
      const key = event.kind === "stalled" ? "stalled" : "resumed";
      sendReminder(deps.hub, caller.tenantId, caller.userId, {
        title: deps.t(`health:ingest.${key}Title`),
        content: deps.t(`health:ingest.${key}Content`, values),
        from: null,
        system,
      });
    }
  };
  if (!deps.cluster) return remind;
  // A Map is not JSON: it travels as its entries.
  const everywhere = deps.cluster.broadcast<Omit<IngestEvent, "onlineByTenant"> & { online: [number, number][]; client: string }>(
    "health.ingest",
    ({ online, client, ...event }) => remind({ ...event, onlineByTenant: new Map(online) }, client),
  );
  return ({ onlineByTenant, ...event }: IngestEvent) =>
    everywhere({ ...event, online: [...onlineByTenant], client: deps.client });
}
