import { randomBytes } from "node:crypto";
import type { Queryable } from "../../src/db/db.ts";
import { issueDeviceSecret } from "../../src/mqtt/device-credentials.ts";

/** A serial number no other run shares (the external broker is shared between runs). */
export const uniqueSerial = (prefix: string) =>
  `${prefix}${process.pid.toString(36)}${randomBytes(3).toString("hex")}`.toUpperCase();

/** A registered device with its broker secret. */
export async function registerDevice(
  db: Queryable,
  options: { sn: string; phaseType?: 1 | 2; timeZone?: string; name?: string },
): Promise<{ id: number; sn: string; secret: string }> {
  const { rows } = await db.query<{ id: number }>(
    "INSERT INTO device (tenant_id, sn, name, phase_type, time_zone) VALUES (1, $1, $2, $3, $4) RETURNING id",
    [options.sn, options.name ?? options.sn, options.phaseType ?? null, options.timeZone ?? null],
  );
  const id = rows[0]?.id as number;
  return { id, sn: options.sn, secret: await issueDeviceSecret(db, id) };
}

/**
 * The brokers the device tests run on: the embedded one always; the external one (Mosquitto in
 * CI) when TEST_MQTT_URL is set, with a shared-subscription group of this run's own.
 */
export function testBrokers(): { name: string; env: Record<string, string> }[] {
  const url = process.env.TEST_MQTT_URL;
  const run = `${process.pid.toString(36)}${randomBytes(3).toString("hex")}`;
  return [
    { name: "embedded broker", env: {} },
    ...(url
      ? [{ name: "external broker", env: { MQTT_URL: url, MQTT_SHARED_GROUP: `ess-test-${run}`, MQTT_SESSION_EXPIRY_S: "60" } }]
      : []),
  ];
}

/** One broker, for files whose subject is not the broker: the external one when TEST_MQTT_URL is set, else the embedded one. */
export const testBroker = () => testBrokers().slice(-1);
