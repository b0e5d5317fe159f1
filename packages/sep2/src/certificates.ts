import "reflect-metadata";
import { webcrypto } from "node:crypto";
import { certificateIdentity, type DeviceIdentity } from "@ess/domain/grid/hashed-identity.ts";
import * as x509 from "@peculiar/x509";

/**
 * The certificates of an IEEE 2030.5 deployment: a certificate authority, the utility server's
 * certificate and the client certificates (an aggregator's, or a device's) it signs. Keys are
 * ECDSA P-256 and signatures ECDSA with SHA-256, the suite IEEE 2030.5 mandates. Everything goes
 * in and out as PEM so the files can be handed to node:tls, openssl or another implementation.
 */

// The library looks its crypto up here; Node's Web Crypto is the same API as the browser's.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);

// The global CryptoKey (the library's own parameter type): Node's Web Crypto key in a Node-only
// program, the DOM's where a program also sees the DOM (the browser tests start a demo utility).
type CryptoKey = (typeof globalThis.CryptoKey)["prototype"];
type CryptoKeyPair = { publicKey: CryptoKey; privateKey: CryptoKey };

const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGNING_ALGORITHM = { name: "ECDSA", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;

/** A certificate and its private key, both PEM. */
export interface CertifiedKey {
  certificatePem: string;
  privateKeyPem: string;
}

export interface CertificateOptions {
  /** Subject common name. */
  commonName: string;
  /** Validity in days from now (default ten years: test fixtures should not expire under a test). */
  validDays?: number;
}

export interface ServerCertificateOptions extends CertificateOptions {
  /** Host names the certificate answers for (default localhost). */
  dnsNames?: readonly string[];
  /** IP addresses the certificate answers for (default 127.0.0.1 and ::1). */
  ipAddresses?: readonly string[];
}

function validity(options: CertificateOptions): { notBefore: Date; notAfter: Date } {
  // A minute in the past so a peer whose clock is slightly behind still accepts it.
  const notBefore = new Date(Date.now() - 60_000);
  return { notBefore, notAfter: new Date(notBefore.getTime() + (options.validDays ?? 3650) * DAY_MS) };
}

function serialNumber(): string {
  // Positive (first bit clear) and unique enough for a test CA.
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString("hex");
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  return (await webcrypto.subtle.importKey("pkcs8", x509.PemConverter.decodeFirst(pem), KEY_ALGORITHM, true, [
    "sign",
  ])) as CryptoKey;
}

function distinguishedName(commonName: string): string {
  // Commas and the like would need escaping in a DN string; test names never need them.
  if (/[,+=<>#;\\"]/.test(commonName)) throw new RangeError("A common name here is plain text without DN punctuation");
  return `CN=${commonName}`;
}

/** A new self-signed certificate authority. */
export async function createCertificateAuthority(options: CertificateOptions): Promise<CertifiedKey> {
  const keys = await newKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: distinguishedName(options.commonName),
    ...validity(options),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificatePem: certificate.toString("pem"), privateKeyPem: await privateKeyPem(keys.privateKey) };
}

async function issue(ca: CertifiedKey, options: CertificateOptions, extensions: x509.Extension[]): Promise<CertifiedKey> {
  const authority = new x509.X509Certificate(ca.certificatePem);
  const keys = await newKeys();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: distinguishedName(options.commonName),
    issuer: authority.subject,
    ...validity(options),
    signingAlgorithm: SIGNING_ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: await importPrivateKey(ca.privateKeyPem),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      await x509.AuthorityKeyIdentifierExtension.create(authority),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...extensions,
    ],
  });
  return { certificatePem: certificate.toString("pem"), privateKeyPem: await privateKeyPem(keys.privateKey) };
}

/** The utility server's TLS certificate, signed by the CA. */
export function issueServerCertificate(ca: CertifiedKey, options: ServerCertificateOptions): Promise<CertifiedKey> {
  const names = [
    ...(options.dnsNames ?? ["localhost"]).map((value) => ({ type: "dns" as const, value })),
    ...(options.ipAddresses ?? ["127.0.0.1", "::1"]).map((value) => ({ type: "ip" as const, value })),
  ];
  return issue(ca, options, [
    new x509.SubjectAlternativeNameExtension(names),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ]);
}

/** A client certificate (an aggregator's or a device's), signed by the CA. */
export function issueClientCertificate(ca: CertifiedKey, options: CertificateOptions): Promise<CertifiedKey> {
  return issue(ca, options, [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])]);
}

/** LFDI and SFDI of a PEM certificate (IEEE 2030.5: from the SHA-256 of its DER form). */
export function identityOfCertificate(certificatePem: string): DeviceIdentity {
  return certificateIdentity(certificatePem);
}

export type { DeviceIdentity };
