import { describe, expect, it } from "vitest";
import { startTestRuntime } from "../helpers/runtime.ts";

const mqttUrl = process.env.TEST_MQTT_URL;
const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * The production arrangement: an external PostgreSQL and an external broker (Mosquitto in CI).
 * Runs when TEST_DATABASE_URL and TEST_MQTT_URL are set (`.ci/run` sets both).
 */
describe.skipIf(!mqttUrl || !databaseUrl)("on external PostgreSQL and an external MQTT broker", () => {
  it("starts, is ready, receives through a shared subscription and stops", async () => {
    // A group and serial number of this run's own: other consumers of the same broker (another
    // console, an earlier run) must not take this run's share of the messages.
    const run = `${process.pid}${Date.now().toString(36)}`.toUpperCase();
    const sn = `SNEXT${run}`;
    const runtime = await startTestRuntime({ MQTT_URL: mqttUrl as string, MQTT_SHARED_GROUP: `ess-test-${run}` });
    try {
      expect(runtime.brokerUrl).toBe(mqttUrl);
      const ready = await fetch(`${runtime.url}readyz`);
      expect(await ready.json()).toEqual({ status: "ready", checks: { database: true, broker: true, ingest: true } });
      const { rows } = await runtime.db.query<{ current_database: string }>("SELECT current_database()");
      expect(rows[0]?.current_database).toMatch(/^ess_test_/);

      // Broker-side device authentication is the external broker's job (docs/device-protocol.md);
      // here the server's own shared subscription must deliver a device topic.
      await runtime.db.query("INSERT INTO device (tenant_id, sn) VALUES (1, $1)", [sn]);
      const mqtt = await import("mqtt");
      const device = await mqtt.default.connectAsync(mqttUrl as string, { clientId: `ess-test-${process.pid}` });
      await device.publishAsync(`ess/v1/${sn}/telemetry`, JSON.stringify({ v: 1, ts: Date.now(), values: {} }), { qos: 1 });
      await device.endAsync();
      await expect
        .poll(async () => (await runtime.db.query("SELECT last_seen_at FROM device WHERE sn = $1", [sn])).rows[0], {
          timeout: 5000,
        })
        .toMatchObject({ last_seen_at: expect.any(Date) });
    } finally {
      await runtime.close();
    }
  });
});
