import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAcceptablePassword } from "@ess/domain";
import { describe, expect, it } from "vitest";
import { adminPassword, brokerAddress, consoleAddress, demoSettings, setAsideRefusedPassword } from "./demo-fleet.ts";

const freshDir = () => join(mkdtempSync(join(tmpdir(), "ess-start-")), "data");

describe("npm start's demo fleet settings", () => {
  it("takes the fleet's size and interval from the environment and refuses values out of range", () => {
    expect(demoSettings({}, 50)).toEqual({ count: 50, intervalMs: 10_000 });
    expect(demoSettings({ ESS_DEMO_DEVICES: "0", ESS_DEMO_INTERVAL_MS: "2000" }, 50)).toEqual({ count: 0, intervalMs: 2000 });
    expect(demoSettings({ ESS_DEMO_DEVICES: "2.5" }, 50)).toEqual({
      problem: "Configuration error: ESS_DEMO_DEVICES: a whole number from 0 to 10000",
    });
    expect(demoSettings({ ESS_DEMO_INTERVAL_MS: "50" }, 50)).toHaveProperty("problem");
  });

  it("reaches the console and its embedded broker where the server listens, a wildcard host on loopback", () => {
    expect(consoleAddress({})).toBe("http://127.0.0.1:7072/");
    expect(consoleAddress({ HOST: "0.0.0.0", PORT: "8080" })).toBe("http://127.0.0.1:8080/");
    expect(consoleAddress({ PORT: "0" })).toBeNull();
    expect(brokerAddress({ MQTT_PORT: "2000" }, "http://127.0.0.1:8080/")).toBe("mqtt://127.0.0.1:2000");
    expect(brokerAddress({ MQTT_URL: "mqtts://broker.example:8883" }, "http://127.0.0.1:8080/")).toBe(
      "mqtts://broker.example:8883",
    );
  });
});

describe("the administrator's password npm start signs in with", () => {
  it("is ESS_ADMIN_PASSWORD when given, and nothing is written", () => {
    const dir = freshDir();
    expect(adminPassword({ ESS_ADMIN_PASSWORD: "Given12345" }, dir)).toEqual({
      password: "Given12345",
      file: null,
      generated: false,
    });
    expect(existsSync(dir)).toBe(false);
  });

  it("is made at the first start, kept for this user only, and read back at the next starts", () => {
    const dir = freshDir();
    const first = adminPassword({}, dir);
    if (!("password" in first)) throw new Error(first.problem);
    expect(first.generated).toBe(true);
    expect(isAcceptablePassword(first.password)).toBe(true);
    const file = first.file as string;
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readFileSync(file, "utf8").trim()).toBe(first.password);
    mkdirSync(join(dir, "pgdata"));
    expect(adminPassword({}, dir)).toEqual({ password: first.password, file, generated: false });
  });

  it("is not guessed for a console created before: without ESS_ADMIN_PASSWORD the fleet waits", () => {
    const dir = freshDir();
    mkdirSync(join(dir, "pgdata"), { recursive: true });
    expect(adminPassword({}, dir)).toHaveProperty("problem");
    expect(adminPassword({ DATABASE_URL: "postgres://db/ess" }, freshDir())).toHaveProperty("problem");
  });

  it("is set aside once the console refused it, so the next start does not try it again", () => {
    const dir = freshDir();
    const first = adminPassword({}, dir);
    if (!("file" in first) || !first.file) throw new Error("no file kept");
    mkdirSync(join(dir, "pgdata"));
    setAsideRefusedPassword(first.file);
    expect(adminPassword({}, dir)).toHaveProperty("problem");
  });
});
