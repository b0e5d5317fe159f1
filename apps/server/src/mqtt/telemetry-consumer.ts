import type { Db } from "../db/db.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { MqttBus } from "./bus.ts";
import { TOPIC_ROOT, topicSerial } from "./topics.ts";

const FLUSH_MS = 1000;

/**
 * Receives device telemetry and keeps each device's last-seen time. Frames arrive far more
 * often than last-seen needs updating, so serial numbers are collected and written once a
 * second in one statement.
 */
export async function startTelemetryConsumer(db: Db, bus: MqttBus, metrics: Metrics) {
  let seen = new Set<string>();
  await bus.subscribe(`${TOPIC_ROOT}/+/telemetry`, (topic) => {
    const sn = topicSerial(topic);
    if (!sn) return;
    metrics.mqttMessages.inc({ kind: "telemetry" });
    seen.add(sn);
  });
  const flush = async () => {
    if (seen.size === 0) return;
    const batch = [...seen];
    seen = new Set();
    await db
      .query("UPDATE device SET last_seen_at = now() WHERE sn = ANY($1::text[]) AND deleted_at IS NULL", [batch])
      .catch(() => {});
  };
  const timer = setInterval(flush, FLUSH_MS);
  return {
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
