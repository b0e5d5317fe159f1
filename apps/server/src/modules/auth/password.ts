import { randomBytes } from "node:crypto";
import { argon2id, argon2Verify } from "hash-wasm";

// OWASP's argon2id baseline: 19 MiB memory, 2 passes, 1 lane.
const PARAMS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2id({ ...PARAMS, password, salt: randomBytes(16), outputType: "encoded" });
}

export function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return argon2Verify({ password, hash: encoded }).catch(() => false);
}

/** A password that satisfies the password rule, for accounts whose first password is generated. */
export function generatePassword(length = 14): string {
  const letters = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
  const digits = "23456789";
  const all = letters + digits;
  const bytes = randomBytes(length);
  const chars = [...bytes].map((b) => all[b % all.length] as string);
  chars[0] = letters[(bytes[0] ?? 0) % letters.length] as string;
  chars[1] = digits[(bytes[1] ?? 0) % digits.length] as string;
  return chars.join("");
}
