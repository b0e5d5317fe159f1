import { randomUUID } from "node:crypto";
import {
  API,
  REALTIME_HEARTBEAT_MS,
  REALTIME_PATH,
  REMINDER_PATTERN,
  type ReminderMessage,
  reminderDestination,
} from "@ess/contracts";
import type { Locale } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { Gauge } from "prom-client";
import type { Db } from "../../db/db.ts";
import { notFound } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { dataScope } from "../scope/data-scope.ts";
import { findUser } from "../users/user.repository.ts";
import type { RealtimeHub } from "./realtime-hub.ts";
import { handleStompConnection } from "./stomp-gateway.ts";

/** Pushes a reminder to a user's consoles; returns how many open consoles received it. */
export function sendReminder(
  hub: RealtimeHub,
  tenantId: number,
  userId: number,
  reminder: Omit<ReminderMessage, "id" | "sentAt">,
) {
  const message: ReminderMessage = { id: randomUUID(), sentAt: new Date().toISOString(), ...reminder };
  return hub.publish(reminderDestination(tenantId, userId), message);
}

/**
 * The live-push gateway at /act/ws and the reminder route. A user may subscribe only to their
 * own reminder topic, in their own tenant.
 */
export function registerRealtime(
  app: FastifyInstance,
  deps: { db: Db; hub: RealtimeHub; translator: (locale: Locale) => Translate; metrics: Metrics; connectTimeoutMs: number },
) {
  const { hub, db } = deps;
  let connections = 0;
  new Gauge({
    name: "ess_realtime_connections",
    help: "Open live-push (STOMP) connections",
    registers: [deps.metrics.registry],
    collect() {
      this.set(connections);
    },
  });
  new Gauge({
    name: "ess_realtime_subscriptions",
    help: "Live-push subscriptions in this process",
    registers: [deps.metrics.registry],
    collect() {
      this.set(hub.subscriberCount());
    },
  });
  hub.authorise(
    REMINDER_PATTERN,
    (caller, params) => params.tenantId === String(caller.tenantId) && params.userId === String(caller.userId),
  );

  app.get(
    REALTIME_PATH,
    // Authentication happens in the STOMP CONNECT frame (browsers cannot set headers on a WebSocket).
    { websocket: true, config: { access: { public: true } }, schema: { hide: true } },
    (socket, request) => {
      connections++;
      socket.once("close", () => connections--);
      handleStompConnection(socket, request, {
        hub,
        auth: app.auth,
        translator: deps.translator,
        heartbeatMs: REALTIME_HEARTBEAT_MS,
        connectTimeoutMs: deps.connectTimeoutMs,
      });
    },
  );

  bindRoute(app, API.realtime.sendReminder, async ({ input, auth }) => {
    // The recipient must be a user the caller may reach (the data scope), else it does not exist.
    if (!(await findUser(db, dataScope(auth), input.body.userId))) throw notFound();
    const delivered = sendReminder(hub, auth.tenantId, input.body.userId, {
      title: input.body.title,
      content: input.body.content,
      from: auth.name || auth.username,
    });
    return { delivered };
  });
}
