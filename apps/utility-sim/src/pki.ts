import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type CertifiedKey,
  createCertificateAuthority,
  identityOfCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from "@ess/sep2/certificates.ts";

/**
 * The certificate files of a standalone utility server, kept in a data folder so a client
 * configured once keeps working across restarts: the CA (which also signs client certificates),
 * the server's certificate and one aggregator client certificate. Made on first start.
 */

export interface PkiFiles {
  caCertificate: string;
  caKey: string;
  serverCertificate: string;
  serverKey: string;
  clientCertificate: string;
  clientKey: string;
}

export interface Pki {
  files: PkiFiles;
  ca: CertifiedKey;
  server: CertifiedKey;
  client: CertifiedKey;
  /** LFDI of the client certificate. */
  clientLfdi: string;
}

export function pkiFiles(folder: string): PkiFiles {
  return {
    caCertificate: join(folder, "ca.pem"),
    caKey: join(folder, "ca-key.pem"),
    serverCertificate: join(folder, "server.pem"),
    serverKey: join(folder, "server-key.pem"),
    clientCertificate: join(folder, "aggregator.pem"),
    clientKey: join(folder, "aggregator-key.pem"),
  };
}

async function load(certificatePath: string, keyPath: string): Promise<CertifiedKey | undefined> {
  if (!existsSync(certificatePath) || !existsSync(keyPath)) return undefined;
  return { certificatePem: await readFile(certificatePath, "utf8"), privateKeyPem: await readFile(keyPath, "utf8") };
}

async function save(certificatePath: string, keyPath: string, made: CertifiedKey): Promise<CertifiedKey> {
  await writeFile(certificatePath, made.certificatePem);
  // Private keys readable by their owner only.
  await writeFile(keyPath, made.privateKeyPem, { mode: 0o600 });
  return made;
}

/** Loads the folder's certificates, making whichever are missing (a new CA re-issues the others). */
export async function ensurePki(folder: string, hostNames: readonly string[] = ["localhost"]): Promise<Pki> {
  await mkdir(folder, { recursive: true });
  const files = pkiFiles(folder);
  const existingCa = await load(files.caCertificate, files.caKey);
  const ca =
    existingCa ??
    (await save(files.caCertificate, files.caKey, await createCertificateAuthority({ commonName: "ESS utility test CA" })));
  // Certificates of a previous CA would no longer verify: a new CA issues everything again.
  const reuse = (cert: string, key: string) => (existingCa ? load(cert, key) : Promise.resolve(undefined));
  const server =
    (await reuse(files.serverCertificate, files.serverKey)) ??
    (await save(
      files.serverCertificate,
      files.serverKey,
      await issueServerCertificate(ca, { commonName: "utility-sim", dnsNames: hostNames }),
    ));
  const client =
    (await reuse(files.clientCertificate, files.clientKey)) ??
    (await save(files.clientCertificate, files.clientKey, await issueClientCertificate(ca, { commonName: "ESS aggregator" })));
  return { files, ca, server, client, clientLfdi: identityOfCertificate(client.certificatePem).lfdi };
}
