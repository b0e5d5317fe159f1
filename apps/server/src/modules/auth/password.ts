import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { hash, verify } from "argon2";
import { createWorkGate } from "../../http/work-gate.ts";

// OWASP's argon2id baseline: 19 MiB memory, 2 passes, 1 lane.
const PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, hashLength: 32 } as const;

/**
 * Hashes run in the native binding on libuv's thread pool, never on the event loop. At most
 * `concurrency` run at once: by default one core fewer than the machine has, so a flood of sign-ins
 * leaves a core to the event loop and leaves libuv's other threads (4 unless UV_THREADPOOL_SIZE says
 * otherwise) to file, DNS and zlib work. Beyond `queue` waiting, a hash is refused (429) at once
 * instead of making every later sign-in wait longer.
 */
export interface PasswordHashing {
  concurrency: number;
  queue: number;
}

export const defaultHashConcurrency = () => Math.max(1, availableParallelism() - 1);

const gate = createWorkGate({ concurrency: defaultHashConcurrency(), queue: 200 });

/** Sets the process's hashing limits (ESS_PASSWORD_HASH_CONCURRENCY, ESS_PASSWORD_HASH_QUEUE). */
export function configurePasswordHashing(next: PasswordHashing) {
  gate.configure(next);
}

// PHC strings as the reference implementation (and the hashes stored so far) write them: m, t, p
// in that order, base64 without padding.
const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

export function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return gate.run(async () => {
    const digest = await hash(password, { ...PARAMS, type: 2, salt, raw: true });
    const { memoryCost: m, timeCost: t, parallelism: p } = PARAMS;
    return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(salt)}$${b64(digest)}`;
  });
}

/** True when the password matches the stored PHC string; false for a wrong password or a damaged hash. */
export function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return gate.run(() => verify(encoded, password).catch(() => false));
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
