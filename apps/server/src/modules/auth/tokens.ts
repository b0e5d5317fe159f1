import { createHash, randomBytes } from "node:crypto";

/** Opaque bearer tokens: 256 random bits, stored only as their SHA-256 digest. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function tokenDigest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,})$/i.exec(header.trim());
  return match?.[1] ?? null;
}
