import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject, randomBytes } from "node:crypto";

/**
 * Personal financial data at rest (bank details): AES-256-GCM, a fresh 96-bit nonce per value,
 * the column's name as additional data so a value moved to another column does not open. A sealed
 * value reads `v1.<key id>.<nonce>.<ciphertext and tag>` (base64url), the key id being the first
 * bytes of the key's SHA-256, so values sealed under a previous key still open after a rotation
 * (ESS_FIELD_KEY_PREVIOUS) and are sealed again under the current key when next written.
 */
export interface FieldCipher {
  seal(plain: string, column: string): string;
  /** Throws when the value was sealed under an unknown key, for another column, or was altered. */
  open(sealed: string, column: string): string;
}

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("base64url").slice(0, 8);

export function createFieldCipher(current: Buffer, previous: readonly Buffer[] = []): FieldCipher {
  for (const key of [current, ...previous]) if (key.length !== 32) throw new Error("a field key is 32 bytes");
  // Key objects made once: given raw bytes, every cipher call would build one of its own, which
  // costs more than the AES itself (a list page opens six fields per row).
  const keys = new Map<string, KeyObject>([current, ...previous].map((key) => [keyId(key), createSecretKey(key)] as const));
  const currentId = keyId(current);
  const currentKey = keys.get(currentId) as KeyObject;
  return {
    seal(plain, column) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", currentKey, nonce);
      cipher.setAAD(Buffer.from(column, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `v1.${currentId}.${nonce.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed, column) {
      const [version, id, nonce, body] = sealed.split(".");
      const key = id ? keys.get(id) : undefined;
      if (version !== "v1" || !key || !nonce || !body) throw new Error("a sealed value of an unknown form or key");
      const bytes = Buffer.from(body, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
      decipher.setAAD(Buffer.from(column, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
    },
  };
}

/** A key as configured: 32 bytes written as base64 (`openssl rand -base64 32`) or 64 hex digits. */
export function parseFieldKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : null;
}
