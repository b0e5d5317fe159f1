import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueSerial } from "../helpers/devices.ts";
import { type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

const PASSWORD = "Flood12345";
let server: ServerProcess;
let url: string;
let brokerUrl: string;
let drop: (() => Promise<void>) | undefined;

const signIn = async (username: string, password: string) => {
  const answer = await fetch(`${url}login?grant_type=admin`, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": "en-US" },
    body: JSON.stringify({ username, password }),
  });
  return ((await answer.json()) as { code: number; data: { access_token?: string } | null }).data?.access_token ?? null;
};

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh?.drop;
  server = startServerProcess({
    DATA_DIR: tempDataDir(),
    ESS_ADMIN_PASSWORD: PASSWORD,
    // Identical sign-ins within a second would otherwise be answered "too frequent" without a hash.
    ESS_REPEAT_GUARD_MS: "0",
    ...(fresh ? { DATABASE_URL: fresh.url } : {}),
  });
  url = await server.ready();
  brokerUrl = /MQTT broker for devices: (mqtt:\/\/\S+)/.exec(server.output())?.[1] as string;
}, 60_000);
afterAll(async () => {
  await server?.stop("SIGKILL").catch(() => {});
  await drop?.();
});

describe("50 sign-ins at once", () => {
  it("leave the health route and a device's acknowledgements answering within a second throughout", async () => {
    // A device of the console, publishing at QoS 1 while the sign-ins run: its PUBACK waits for
    // the console to take the message, so a stalled event loop would show here too.
    const token = (await signIn("admin", PASSWORD)) as string;
    const sn = uniqueSerial("FLOOD");
    const created = (await (
      await fetch(`${url}admin/lsydevice/save`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ sn, name: sn, model: "H6K" }),
      })
    ).json()) as { data: { credential: { secret: string } } };
    const device = await mqtt.connectAsync(brokerUrl, {
      clientId: sn,
      username: sn,
      password: created.data.credential.secret,
      keepalive: 30,
      reconnectPeriod: 0,
    });

    const healthTimes: number[] = [];
    const ackTimes: number[] = [];
    let flooding = true;
    const probeHealth = async () => {
      while (flooding) {
        const started = performance.now();
        const answer = await fetch(`${url}healthz`);
        await answer.arrayBuffer();
        healthTimes.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const probeAcks = async () => {
      while (flooding) {
        const started = performance.now();
        await device.publishAsync(`ess/v1/${sn}/status`, "online", { qos: 1 });
        ackTimes.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const probes = Promise.all([probeHealth(), probeAcks()]);
    await new Promise((r) => setTimeout(r, 200));

    // Right and wrong passwords alike cost a hash (an unknown account is checked against a decoy);
    // fewer wrong ones than the address may fail (20), so every right one gets its session.
    const wrong = (i: number) => i % 10 < 3;
    const attempts = Array.from({ length: 50 }, (_, i) =>
      wrong(i) ? signIn(`nobody${i}`, "Wrong12345") : signIn("admin", PASSWORD),
    );
    const tokens = await Promise.all(attempts);
    flooding = false;
    await probes;
    device.end(true);

    expect(healthTimes.length).toBeGreaterThan(5);
    expect(ackTimes.length).toBeGreaterThan(3);
    expect(Math.max(...healthTimes), `health answers (ms): ${healthTimes.map(Math.round).join(", ")}`).toBeLessThan(1000);
    expect(Math.max(...ackTimes), `acknowledgements (ms): ${ackTimes.map(Math.round).join(", ")}`).toBeLessThan(1000);
    expect(tokens.filter((t, i) => !wrong(i) && t !== null)).toHaveLength(35);
    expect(tokens.filter((t, i) => wrong(i) && t !== null)).toHaveLength(0);
  });
});
