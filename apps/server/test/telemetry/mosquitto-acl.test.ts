import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { baselineValues, blocksFromValues, encodeFrame, TELEMETRY_REGISTERS, telemetryLayout } from "@ess/contracts";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { freePort, listening, tempDataDir } from "../helpers/server-process.ts";

const MOSQUITTO = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].find(existsSync);
const PASSWD = ["/usr/bin/mosquitto_passwd"].find(existsSync);

/**
 * The external-broker set-up of docs/device-protocol.md on a Mosquitto of this test's own (the
 * shared one allows anyone): a password per device and the ACL pattern that keeps each device
 * below its own serial number.
 */
describe.skipIf(!MOSQUITTO || !PASSWD)("a Mosquitto configured as documented", () => {
  let broker: ChildProcess;
  let runtime: Runtime;
  let url: string;
  // Secrets as the console issues them; here the broker's password file holds them.
  const devices = ["ACLA", "ACLB"].map((prefix) => ({ sn: uniqueSerial(prefix), secret: randomBytes(24).toString("base64url") }));

  beforeAll(async () => {
    const dir = tempDataDir("ess-mosquitto-");
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    const passwd = join(dir, "passwd");
    writeFileSync(passwd, "");
    execFileSync(PASSWD as string, ["-b", passwd, "ess-server", "server-secret-1"]);
    for (const d of devices) execFileSync(PASSWD as string, ["-b", passwd, d.sn, d.secret]);
    writeFileSync(join(dir, "acl"), "user ess-server\ntopic readwrite ess/v1/#\n\npattern readwrite ess/v1/%u/#\n");
    writeFileSync(
      join(dir, "mosquitto.conf"),
      [
        `listener ${port} 127.0.0.1`,
        "allow_anonymous false",
        `password_file ${passwd}`,
        `acl_file ${join(dir, "acl")}`,
        "use_username_as_clientid true",
        "persistence false",
        // Started as root, Mosquitto would switch to its own user, who cannot read this folder.
        `user ${userInfo().username}`,
        "max_queued_messages 100000",
      ].join("\n"),
    );
    broker = spawn(MOSQUITTO as string, ["-c", join(dir, "mosquitto.conf")], { stdio: "ignore" });
    for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(async () => {
    await runtime?.close().catch(() => {});
    broker?.kill("SIGTERM");
  });

  it("keeps each device below its own serial number, with the console consuming everything", async () => {
    runtime = await startTestRuntime({
      MQTT_URL: url,
      MQTT_USERNAME: "ess-server",
      MQTT_PASSWORD: "server-secret-1",
      MQTT_SHARED_GROUP: "ess-acl-test",
      MQTT_SESSION_EXPIRY_S: "30",
    });
    const [a, b] = devices as [(typeof devices)[number], (typeof devices)[number]];
    for (const d of devices) await registerDevice(runtime.db, { sn: d.sn, phaseType: 2, timeZone: "UTC" });
    const idOf = async (sn: string) =>
      (await runtime.db.query<{ id: number }>("SELECT id FROM device WHERE sn = $1", [sn])).rows[0]?.id;
    const stored = async (sn: string) =>
      (
        await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM telemetry_history WHERE device_id = $1", [
          await idOf(sn),
        ])
      ).rows[0]?.n;

    await expect(
      mqtt.connectAsync(url, { clientId: a.sn, username: a.sn, password: "wrong", reconnectPeriod: 0 }),
    ).rejects.toThrow(/Not authorized|Bad username or password/);
    const client = await mqtt.connectAsync(url, { clientId: a.sn, username: a.sn, password: a.secret, reconnectPeriod: 0 });
    try {
      const frame = encodeFrame(
        { kind: "telemetry", ts: Date.now() - 60_000, seq: 1, requestId: 0, page: 0, flags: 0 },
        blocksFromValues(telemetryLayout("three"), baselineValues(TELEMETRY_REGISTERS.three)),
      );
      await client.publishAsync(`ess/v1/${b.sn}/telemetry`, frame, { qos: 1 }); // another's topic: dropped by the ACL
      await client.publishAsync(`ess/v1/${a.sn}/telemetry`, frame, { qos: 1 });
      await expect.poll(() => stored(a.sn), { timeout: 5000 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await stored(b.sn)).toBe(0);
      // Mosquitto grants the subscription but never delivers another device's commands to it.
      const owner = await mqtt.connectAsync(url, { clientId: b.sn, username: b.sn, password: b.secret, reconnectPeriod: 0 });
      const seen: Record<string, string[]> = { a: [], b: [] };
      client.on("message", (topic) => seen.a?.push(topic));
      owner.on("message", (topic) => seen.b?.push(topic));
      await client.subscribeAsync(`ess/v1/${b.sn}/cmd/#`, { qos: 1 });
      await owner.subscribeAsync(`ess/v1/${b.sn}/cmd/#`, { qos: 1 });
      await runtime.telemetry.requests.command(b.sn, 3, 800).catch(() => {});
      expect(seen).toEqual({ a: [], b: [`ess/v1/${b.sn}/cmd/command`] });
      await owner.endAsync();
    } finally {
      await client.endAsync();
    }
  });
});
