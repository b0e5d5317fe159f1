import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { certificateIdentity, type DeviceIdentity } from "@ess/domain/grid/hashed-identity.ts";
import { type Config, ConfigError } from "../../config/config.ts";

/** The aggregator's TLS material and its identity at the utility (from its certificate). */
export interface GridCredentials {
  cert: string;
  key: string;
  ca: string;
  identity: DeviceIdentity;
}

/** Refuses the start with one line naming the setting at fault. */
export class GridCredentialsError extends ConfigError {
  override name = "GridCredentialsError";
}

function readPem(variable: string, path: string | undefined): string {
  if (!path) throw new GridCredentialsError(`${variable} is not set: the grid connection needs it with ESS_GRID_DCAP_URL.`);
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new GridCredentialsError(`${variable}=${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? "error"}.`);
  }
}

/**
 * Reads and checks the certificate, key and CA before anything talks to the utility: a certificate
 * that does not parse, or whose key is not the one given, would fail every TLS handshake later with
 * an error far from its cause.
 */
export function loadGridCredentials(config: Pick<Config, "ESS_GRID_CERT" | "ESS_GRID_KEY" | "ESS_GRID_CA">): GridCredentials {
  const cert = readPem("ESS_GRID_CERT", config.ESS_GRID_CERT);
  const key = readPem("ESS_GRID_KEY", config.ESS_GRID_KEY);
  const ca = readPem("ESS_GRID_CA", config.ESS_GRID_CA);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new GridCredentialsError(`ESS_GRID_CERT=${config.ESS_GRID_CERT} is not a PEM certificate.`);
  }
  try {
    new X509Certificate(ca);
  } catch {
    throw new GridCredentialsError(`ESS_GRID_CA=${config.ESS_GRID_CA} is not a PEM certificate.`);
  }
  let matches = false;
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(key));
  } catch {
    throw new GridCredentialsError(`ESS_GRID_KEY=${config.ESS_GRID_KEY} is not a PEM private key.`);
  }
  if (!matches)
    throw new GridCredentialsError(
      `ESS_GRID_KEY=${config.ESS_GRID_KEY} is not the private key of ESS_GRID_CERT=${config.ESS_GRID_CERT}.`,
    );
  return { cert, key, ca, identity: certificateIdentity(cert) };
}
