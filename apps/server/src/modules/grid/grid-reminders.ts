import { REMINDER_PATTERN } from "@ess/contracts";
import type { ClusterBus } from "../../cluster/bus.ts";
import type { Translate } from "../../i18n/translator.ts";
import { sendReminder } from "../realtime/realtime.routes.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import type { PinMismatchEvent } from "./grid-client.ts";

/**
 * Tells the users who watch the console's health (`sys.health.view`) in the site's tenant that a
 * grid site's registration PIN differs from the utility's: the site is no longer reported to the
 * utility until staff correct the PIN, so someone must act. The console words it in its user's
 * language from `system`; title and content here are for clients that do not. The client runs in
 * one process; with a cluster bus, the consoles served by the others hear of it too.
 */
export function createGridReminders(deps: { hub: RealtimeHub; t: Translate; cluster?: ClusterBus }) {
  const remind = (event: PinMismatchEvent) => {
    for (const s of deps.hub.subscribed(REMINDER_PATTERN)) {
      const caller = s.callers[0];
      if (!caller || String(caller.tenantId) !== s.params.tenantId || String(caller.userId) !== s.params.userId) continue;
      if (caller.tenantId !== event.tenantId || !caller.permissions.has("sys.health.view")) continue;
      sendReminder(deps.hub, caller.tenantId, caller.userId, {
        title: deps.t("health:grid.pinMismatchTitle"),
        content: deps.t("health:grid.pinMismatchContent", { sn: event.sn }),
        from: null,
        system: { kind: "gridPinMismatch", sn: event.sn },
      });
    }
  };
  return deps.cluster ? deps.cluster.broadcast("grid.pinMismatch", remind) : remind;
}
