import { resolve } from "node:path";
import { compressedClock } from "./clock.ts";
import { startControlPort } from "./control-http.ts";
import { ensurePki } from "./pki.ts";
import { startUtilitySim } from "./server.ts";

/**
 * Standalone utility test server. Environment:
 *   UTILITY_SIM_PORT          HTTPS port (default 8443)
 *   UTILITY_SIM_HOST          address to listen on (default 127.0.0.1)
 *   UTILITY_SIM_CONTROL_PORT  JSON control port on 127.0.0.1 (default HTTPS port + 1)
 *   UTILITY_SIM_DATA          folder for the CA and certificates (default ./data/utility-sim)
 *   UTILITY_SIM_TIME_FACTOR   server seconds per real second (default 1)
 */

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new RangeError(`${name} must be a port number, got ${raw}`);
  return value;
}

const port = intFromEnv("UTILITY_SIM_PORT", 8443);
const host = process.env.UTILITY_SIM_HOST || "127.0.0.1";
const controlPortNumber = intFromEnv("UTILITY_SIM_CONTROL_PORT", port === 0 ? 0 : port + 1);
const dataFolder = resolve(process.env.UTILITY_SIM_DATA || "data/utility-sim");
const factor = Number(process.env.UTILITY_SIM_TIME_FACTOR || "1");

const pki = await ensurePki(dataFolder, ["localhost", ...(host === "127.0.0.1" ? [] : [host])]);
const sim = await startUtilitySim({
  tls: { ca: pki.ca.certificatePem, cert: pki.server.certificatePem, key: pki.server.privateKeyPem },
  port,
  host,
  clock: compressedClock({ factor }),
});
const controlPort = await startControlPort(sim.control, controlPortNumber);

process.stdout.write(`IEEE 2030.5 utility test server (time x${factor})
  DeviceCapability  ${sim.dcapUrl}
  control (JSON)    ${controlPort.url}
  server CA         ${pki.files.caCertificate}
  client cert       ${pki.files.clientCertificate}
  client key        ${pki.files.clientKey}
  client LFDI       ${pki.clientLfdi}\n`);

const stop = async () => {
  await Promise.all([sim.close(), controlPort.close()]);
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
