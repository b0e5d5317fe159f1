import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError } from "../config/config.ts";
import { createFieldCipher, type FieldCipher, parseFieldKey } from "./field-cipher.ts";

/**
 * The cipher of personal financial data from the configuration. Production refuses to start
 * without ESS_FIELD_KEY: a key made on one machine would leave every other process (and a restore
 * onto a new machine) unable to read what it sealed. Development and tests keep a key of their
 * own in DATA_DIR/field.key, made at the first start.
 */
export function fieldCipherFrom(
  config: Pick<Config, "ESS_FIELD_KEY" | "ESS_FIELD_KEY_PREVIOUS" | "NODE_ENV" | "DATA_DIR">,
): FieldCipher {
  const previous = (config.ESS_FIELD_KEY_PREVIOUS ?? "")
    .split(",")
    .filter((k) => k.trim())
    .map((k) => parseFieldKey(k) as Buffer);
  if (config.ESS_FIELD_KEY) return createFieldCipher(parseFieldKey(config.ESS_FIELD_KEY) as Buffer, previous);
  if (config.NODE_ENV === "production") {
    throw new ConfigError(
      "ESS_FIELD_KEY is required in production: 32 random bytes as base64 (openssl rand -base64 32), the same for every process of the console.",
    );
  }
  const file = join(config.DATA_DIR, "field.key");
  let key: Buffer | null = null;
  try {
    key = parseFieldKey(readFileSync(file, "utf8"));
  } catch {
    key = null;
  }
  if (!key) {
    key = randomBytes(32);
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "w" });
  }
  return createFieldCipher(key, previous);
}
