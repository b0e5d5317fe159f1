import { randomBytes } from "node:crypto";
import { argon2id, argon2Verify } from "hash-wasm";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { configurePasswordHashing, defaultHashConcurrency, hashPassword, verifyPassword } from "./password.ts";

// How the console hashed passwords before the native binding (hash-wasm, same parameters): the
// hashes stored in every database so far.
const storedBefore = (password: string) =>
  argon2id({
    password,
    salt: randomBytes(16),
    memorySize: 19_456,
    iterations: 2,
    parallelism: 1,
    hashLength: 32,
    outputType: "encoded",
  });

afterEach(() => configurePasswordHashing({ concurrency: defaultHashConcurrency(), queue: 200 }));

describe("password hashes", () => {
  it("verifies the hashes stored before, and refuses a wrong password against them", async () => {
    const stored = await storedBefore("Secret123");
    expect(await verifyPassword("Secret123", stored)).toBe(true);
    expect(await verifyPassword("Secret124", stored)).toBe(false);
    // One made by the earlier release, as it sits in a database.
    const fromDatabase = "$argon2id$v=19$m=19456,t=2,p=1$EMsJ0wQ3xPu7ePKPEUpIOg$fZRfz0nJ+eqtlCWKPEiYHPdjfr65w3iZwc0J29zDzZo";
    expect(await verifyPassword("x", fromDatabase)).toBe(true);
    expect(await verifyPassword("y", fromDatabase)).toBe(false);
  });

  it("writes the same PHC string format, which the earlier code verifies too", async () => {
    const hash = await hashPassword("Secret123");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await argon2Verify({ password: "Secret123", hash })).toBe(true);
    expect(await argon2Verify({ password: "Secret12", hash })).toBe(false);
    expect(await hashPassword("Secret123")).not.toBe(hash);
  });

  it("answers false for a damaged hash instead of failing", async () => {
    expect(await verifyPassword("x", "not a hash")).toBe(false);
    expect(await verifyPassword("x", "$argon2id$v=19$m=19456,t=2,p=1$short$short")).toBe(false);
  });

  it("runs at most the configured number at once and refuses past the waiting room", async () => {
    configurePasswordHashing({ concurrency: 1, queue: 2 });
    const stored = await storedBefore("Secret123");
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => verifyPassword("Secret123", stored)));
    // One runs, two wait, two are refused at once with "too many requests".
    expect(outcomes.filter((o) => o.status === "fulfilled" && o.value)).toHaveLength(3);
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused).toHaveLength(2);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(((refused[0] as PromiseRejectedResult).reason as AppError).kind).toBe("rateLimited");
    // The slots are all given back.
    expect(await verifyPassword("Secret123", stored)).toBe(true);
  });
});
