import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority, issueClientCertificate } from "@ess/sep2/certificates.ts";
import { freePort } from "../helpers/server-process.ts";

/**
 * A console's grid settings towards a utility that is not there: a DeviceCapability URL on a closed
 * port and an aggregator certificate in files of their own; `remove` deletes the files.
 */
export async function unreachableUtility(prefix: string): Promise<{ env: Record<string, string>; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ca = await createCertificateAuthority({ commonName: "CA" });
  const mine = await issueClientCertificate(ca, { commonName: "aggregator" });
  writeFileSync(join(dir, "c.pem"), mine.certificatePem);
  writeFileSync(join(dir, "k.pem"), mine.privateKeyPem);
  writeFileSync(join(dir, "ca.pem"), ca.certificatePem);
  return {
    env: {
      ESS_GRID_DCAP_URL: `https://127.0.0.1:${await freePort()}/dcap`,
      ESS_GRID_CERT: join(dir, "c.pem"),
      ESS_GRID_KEY: join(dir, "k.pem"),
      ESS_GRID_CA: join(dir, "ca.pem"),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
