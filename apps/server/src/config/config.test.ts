import { describe, expect, it } from "vitest";
import { ConfigError, fileStoreKind, loadConfig, redactUrl } from "./config.ts";

describe("configuration from the environment", () => {
  it("uses the embedded defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ HOST: "127.0.0.1", PORT: 7072, MQTT_PORT: 1884, DATA_DIR: "./data", LOG_LEVEL: "info" });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MQTT_URL).toBeUndefined();
    expect(config).toMatchObject({ ESS_CAPTCHA: "on", ESS_DEMO_MODE: "off", ESS_REPEAT_GUARD_MS: 1000 });
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" }).PORT).toBe(7072);
  });

  it.each([
    [{ PORT: "abc" }, 'PORT="abc" is not valid: expected an integer port number from 0 to 65535.'],
    [{ PORT: "70000" }, 'PORT="70000" is not valid: expected an integer port number from 0 to 65535.'],
    [
      { DATABASE_URL: "mysql://x" },
      'DATABASE_URL="mysql://x" is not valid: expected a postgres:// or postgresql:// connection URL.',
    ],
    [{ MQTT_PORT: "1883" }, 'MQTT_PORT="1883" is not valid: expected a port other than 1883 (kept free for a system broker).'],
    [{ ESS_CAPTCHA: "no" }, 'ESS_CAPTCHA="no" is not valid: expected on or off.'],
    [{ ESS_FILE_STORE: "ftp" }, 'ESS_FILE_STORE="ftp" is not valid: expected folder, database or s3.'],
    [{ ESS_FILE_STORE: "s3" }, "ESS_S3_BUCKET is not set: ESS_FILE_STORE=s3 needs it."],
    [
      { DATABASE_URL: "postgres://db/ess", DATABASE_POOL_SIZE: "4" },
      "ESS_INGEST_WRITERS=4 needs DATABASE_POOL_SIZE above it (now 4): the console's other work shares the pool.",
    ],
    [{ ESS_INGEST_WRITERS: "0" }, 'ESS_INGEST_WRITERS="0" is not valid: expected a whole number from 1 to 16.'],
    [
      { ESS_S3_BUCKET: "Not_A_Bucket" },
      `ESS_S3_BUCKET="Not_A_Bucket" is not valid: expected a bucket name: 3 to 63 lower-case letters, digits, '.' or '-'.`,
    ],
    [
      { ESS_FILE_STORE: "s3", ESS_S3_BUCKET: "ess-files", ESS_S3_ACCESS_KEY_ID: "AKIAEXAMPLE" },
      "ESS_S3_ACCESS_KEY_ID and ESS_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's own credentials.",
    ],
    [{ LOG_LEVEL: "loud" }, 'LOG_LEVEL="loud" is not valid: expected one of fatal, error, warn, info, debug, trace, silent.'],
    [
      { ESS_ADMIN_PASSWORD: "short" },
      "ESS_ADMIN_PASSWORD=(hidden) is not valid: expected 6 to 20 characters with both letters and digits.",
    ],
  ])("stops on %o with a line naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("reports every wrong variable at once", () => {
    expect(() => loadConfig({ PORT: "x", MQTT_URL: "http://nope" })).toThrow(/PORT=.*MQTT_URL=/);
  });

  it("keeps uploads in the database when on a PostgreSQL server, in DATA_DIR/files otherwise, unless told", () => {
    const pg = "postgres://ess@db:5432/ess";
    expect(fileStoreKind(loadConfig({}))).toBe("folder");
    expect(fileStoreKind(loadConfig({ DATABASE_URL: pg }))).toBe("database");
    expect(fileStoreKind(loadConfig({ DATABASE_URL: pg, ESS_FILE_STORE: "folder" }))).toBe("folder");
    expect(fileStoreKind(loadConfig({ ESS_FILE_STORE: "database" }))).toBe("database");
  });

  it("never prints a database password", () => {
    expect(redactUrl("postgres://ess:s3cret@db:5432/ess")).toBe("postgres://ess:***@db:5432/ess");
  });
});
