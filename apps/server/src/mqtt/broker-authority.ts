import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/db.ts";
import { verifyDeviceSecret } from "./device-credentials.ts";
import type { BrokerAuthority, BrokerPrincipal } from "./embedded-broker.ts";

/**
 * Credentials of the embedded broker: the server's own account (a secret made fresh at every
 * start, never stored) and each device's issued secret, where the client id must be the
 * device's serial number so that one device cannot take over another's session.
 */
export function createBrokerAuthority(db: Db) {
  const service = { username: "ess-server", password: randomBytes(24).toString("base64url") };
  const authority: BrokerAuthority = {
    async authenticate(clientId, username, password): Promise<BrokerPrincipal | null> {
      if (username === service.username) {
        const a = Buffer.from(password);
        const b = Buffer.from(service.password);
        return a.length === b.length && timingSafeEqual(a, b) ? { kind: "service" } : null;
      }
      if (clientId !== username) return null;
      return (await verifyDeviceSecret(db, username, password)) ? { kind: "device", sn: username } : null;
    },
  };
  return { authority, service };
}
