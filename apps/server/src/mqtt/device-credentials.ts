import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { deviceTopicPrefix, type IssuedCredential } from "@ess/contracts";
import type { Queryable } from "../db/db.ts";

const digest = (salt: Buffer, secret: string) => createHash("sha256").update(salt).update(secret).digest();

/** Issues (or re-issues) the broker secret of a device; the plain secret is returned only here. */
export async function issueDeviceSecret(db: Queryable, deviceId: number): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  const salt = randomBytes(16);
  await db.query(
    `INSERT INTO device_credential (device_id, secret_salt, secret_hash) VALUES ($1, $2, $3)
     ON CONFLICT (device_id) DO UPDATE SET secret_salt = EXCLUDED.secret_salt,
       secret_hash = EXCLUDED.secret_hash, issued_at = now()`,
    [deviceId, salt, digest(salt, secret)],
  );
  return secret;
}

/**
 * Issues (or re-issues) the secret of the device and answers it as the console shows it once:
 * re-issuing replaces the stored digest, so the old secret is refused from the next connection.
 */
export async function issueDeviceCredential(db: Queryable, device: { id: number; sn: string }): Promise<IssuedCredential> {
  const secret = await issueDeviceSecret(db, device.id);
  return { sn: device.sn, username: device.sn, secret, topicPrefix: deviceTopicPrefix(device.sn) };
}

/** True when `secret` is the current broker secret of the device with serial number `sn`. */
export async function verifyDeviceSecret(db: Queryable, sn: string, secret: string): Promise<boolean> {
  const { rows } = await db.query<{ secret_salt: Buffer; secret_hash: Buffer }>(
    `SELECT c.secret_salt, c.secret_hash FROM device_credential c
       JOIN device d ON d.id = c.device_id AND d.deleted_at IS NULL
      WHERE d.sn = $1`,
    [sn],
  );
  const row = rows[0];
  if (!row) return false;
  const expected = Buffer.from(row.secret_hash);
  const actual = digest(Buffer.from(row.secret_salt), secret);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
