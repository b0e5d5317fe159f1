import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** One registry per server instance, so tests that build several apps do not collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "ess_" });
  return {
    registry,
    httpDuration: new Histogram({
      name: "ess_http_request_duration_seconds",
      help: "HTTP request duration by route and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    mqttMessages: new Counter({
      name: "ess_mqtt_messages_total",
      help: "MQTT messages received from devices, by kind",
      labelNames: ["kind"] as const,
      registers: [registry],
    }),
    ingestFrames: new Counter({
      name: "ess_ingest_frames_total",
      help: "Telemetry frames by outcome: stored, duplicate, undecodable, unknown_device, bad_time",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    ingestInvalidValues: new Counter({
      name: "ess_ingest_invalid_values_total",
      help: "Values outside their register's range or enumeration (flagged, never shown as readings)",
      registers: [registry],
    }),
    ingestUnknownValues: new Counter({
      name: "ess_ingest_unknown_values_total",
      help: "Non-zero words at addresses the register catalogue does not define",
      registers: [registry],
    }),
    ingestFailures: new Counter({
      name: "ess_ingest_failures_total",
      help: "Telemetry batches the database refused (retried)",
      registers: [registry],
    }),
    ingestBatchSeconds: new Histogram({
      name: "ess_ingest_batch_seconds",
      help: "Time to store one telemetry batch",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    ingestStalls: new Counter({
      name: "ess_ingest_stalls_total",
      help: "Times a connected external broker delivered no device message for ESS_INGEST_STALL_S while devices were online",
      registers: [registry],
    }),
    ingestStalled: new Gauge({
      name: "ess_ingest_stalled",
      help: "1 while such a stall lasts (the console subscribes again until messages arrive)",
      registers: [registry],
    }),
    ingestSilence: new Gauge({
      name: "ess_ingest_silence_seconds",
      help: "Seconds since a device's message last reached this process through the external broker",
      registers: [registry],
    }),
    clusterNotices: new Counter({
      name: "ess_cluster_notices_total",
      help: "Notices between console processes (cluster/bus.ts): sent, received from others, large (through cluster_event), dropped (a queue was full or sending failed)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    mqttResubscriptions: new Counter({
      name: "ess_mqtt_resubscriptions_total",
      help: "Subscriptions sent again to the external broker: after a reconnection or a stall; failed = refused or cut off",
      labelNames: ["reason", "outcome"] as const,
      registers: [registry],
    }),
    ingestQueue: new Gauge({
      name: "ess_ingest_queue_frames",
      help: "Telemetry frames waiting to be stored",
      registers: [registry],
    }),
    alarmEvents: new Counter({
      name: "ess_alarm_events_total",
      help: "Alarm events from devices by outcome: stored, duplicate, invalid, bad_time (dated too far ahead or past retention)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    alarmUnknownCodes: new Counter({
      name: "ess_alarm_unknown_code_events_total",
      help: "Stored alarm events with a code the tenant's fault catalogue lacks (shown as unknown faults)",
      registers: [registry],
    }),
    alarmDetectionFailures: new Counter({
      name: "ess_alarm_detection_failures_total",
      help: "Alarm detection steps the database refused (retried; left to the recovery pass after repeated failures)",
      registers: [registry],
    }),
    gridRequests: new Counter({
      name: "ess_grid_requests_total",
      help: "Requests to the utility's IEEE 2030.5 server by method and HTTP status (0: no answer)",
      labelNames: ["method", "status"] as const,
      registers: [registry],
    }),
    gridFailures: new Counter({
      name: "ess_grid_failures_total",
      help: "Utility exchanges that failed (unreachable, timed out, refused, unreadable), by what was being done",
      labelNames: ["task"] as const,
      registers: [registry],
    }),
    gridRounds: new Counter({
      name: "ess_grid_rounds_total",
      help: "Rounds of the grid client's loops completed (a site's program poll, DER description, mirror post…), by loop",
      labelNames: ["task"] as const,
      registers: [registry],
    }),
    gridLastSuccess: new Gauge({
      name: "ess_grid_last_success_seconds",
      help: "Unix time of each grid site's last successful poll of the utility",
      labelNames: ["site"] as const,
      registers: [registry],
    }),
    brokerSessionsDrained: new Counter({
      name: "ess_broker_sessions_drained_total",
      help: "Broker sessions of gone processes of this console that this process emptied and ended",
      registers: [registry],
    }),
    jobLeader: new Gauge({
      name: "ess_job_leader",
      help: "1 while this process holds the job's lease and runs the job (jobs that run in one process of the console)",
      labelNames: ["job"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function instrumentHttp(app: FastifyInstance, metrics: Metrics) {
  app.addHook("onResponse", async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? "unmatched", status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
