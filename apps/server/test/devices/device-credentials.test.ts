import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueDeviceSecret } from "../../src/mqtt/device-credentials.ts";
import type { Runtime } from "../../src/runtime.ts";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { startTestRuntime } from "../helpers/runtime.ts";

let runtime: Runtime;
let world: World;

beforeAll(async () => {
  runtime = await startTestRuntime();
  world = await buildWorld(runtime.app, runtime.db);
}, 120_000);
afterAll(() => runtime.close());

const post = async (url: string, who: string, payload: object, lang = "en-US") =>
  runtime.app.inject({ method: "POST", url, payload, headers: { ...bearer(await world.token(who)), "accept-language": lang } });

/** Whether the embedded broker lets a device in with these credentials (client id = user name). */
async function connects(sn: string, secret: string): Promise<boolean> {
  const client = mqtt.connect(runtime.brokerUrl, {
    clientId: sn,
    username: sn,
    password: secret,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  try {
    return await new Promise<boolean>((resolve) => {
      client.once("connect", () => resolve(true));
      client.once("error", () => resolve(false));
      client.once("close", () => resolve(false));
    });
  } finally {
    client.end(true);
  }
}

describe("broker credentials issued by the console", () => {
  it("registering a device answers its secret once, and the device can connect with it", async () => {
    const created = (await post("/admin/lsydevice/save", "acc-D1a", { sn: "cred0001", name: "Garage", model: "H6K" })).json();
    expect(created.code).toBe(0);
    const credential = created.data.credential;
    expect(credential).toMatchObject({ sn: "CRED0001", username: "CRED0001", topicPrefix: "ess/v1/CRED0001/" });
    expect(credential.secret.length).toBeGreaterThanOrEqual(32);
    expect(await connects("CRED0001", credential.secret)).toBe(true);
    expect(await connects("CRED0001", "not-the-secret")).toBe(false);
    // Shown once: the device as read afterwards carries no secret, and none is stored in plain.
    const info = await runtime.app.inject({
      method: "GET",
      url: `/admin/lsydevice/info?id=${created.data.id}`,
      headers: bearer(await world.token("acc-D1a")),
    });
    expect(info.body).not.toContain(credential.secret);
    const stored = await runtime.db.query("SELECT * FROM device_credential WHERE device_id = $1", [created.data.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(credential.secret);
  });

  it("a refused registration issues nothing", async () => {
    const again = (await post("/admin/lsydevice/save", "admin", { sn: "CRED0001", name: "Other", model: "H6K" })).json();
    expect(again.code).toBe(1);
    expect(again.data.credential).toBeUndefined();
  });

  it("an import answers a secret for each device it registers, and each connects", async () => {
    const content = "sn,name,model\r\nCREDIMP1,One,H6K\r\nCREDIMP2,Two,T10K\r\nCREDIMP3,Bad,NOPE\r\n";
    const result = (await post("/admin/lsydevice/importExcel", "acc-D1a", { content })).json().data;
    expect(result).toMatchObject({ succeeded: 2, failed: 1 });
    expect(result.credentials.map((c: { sn: string }) => c.sn)).toEqual(["CREDIMP1", "CREDIMP2"]);
    for (const c of result.credentials) {
      expect(c.topicPrefix).toBe(`ess/v1/${c.sn}/`);
      expect(await connects(c.sn, c.secret)).toBe(true);
    }
    // Importing the same rows again registers nothing and so issues nothing (another file name: the
    // server refuses an identical request repeated at once).
    const again = (await post("/admin/lsydevice/importExcel", "acc-D1a", { content, fileName: "again.csv" })).json().data;
    expect(again).toMatchObject({ succeeded: 0, credentials: [] });
    expect(await connects("CREDIMP1", result.credentials[0].secret)).toBe(true);
  });

  it("resetting the secret refuses the old one from the next connection and accepts the new one", async () => {
    const created = (await post("/admin/lsydevice/save", "acc-D1", { sn: "CRED0002", name: "Shed", model: "H6K" })).json().data;
    const old = created.credential.secret as string;
    expect(await connects("CRED0002", old)).toBe(true);
    // A connection open with the old secret is ended by the reset, not left running on it.
    const open = mqtt.connect(runtime.brokerUrl, {
      clientId: "CRED0002",
      username: "CRED0002",
      password: old,
      reconnectPeriod: 0,
    });
    await new Promise((resolve, reject) => open.once("connect", resolve).once("error", reject));
    const closed = new Promise<void>((resolve) => open.once("close", () => resolve()));
    const reset = (await post("/admin/lsydevice/resetSecret", "acc-D1", { id: created.id })).json();
    await closed;
    open.end(true);
    expect(reset.code).toBe(0);
    expect(reset.data).toMatchObject({ sn: "CRED0002", username: "CRED0002", topicPrefix: "ess/v1/CRED0002/" });
    expect(reset.data.secret).not.toBe(old);
    expect(await connects("CRED0002", old)).toBe(false);
    expect(await connects("CRED0002", reset.data.secret)).toBe(true);
    // Recorded in the operation log like the other device changes, without any secret.
    const { rows } = await runtime.db.query<{ operator_name: string; params: unknown }>(
      "SELECT operator_name, params FROM sys_log WHERE operation = 'device.resetSecret' AND status = 200",
    );
    expect(rows.map((r) => r.operator_name)).toContain("acc-D1");
    expect(JSON.stringify(rows)).not.toContain(reset.data.secret);
  });

  it("refuses a reset outside the caller's data scope or without the device edit permission, changing nothing", async () => {
    const other = world.devices.get("dev-2a")?.id as number;
    const secret = await issueDeviceSecret(runtime.db, other);
    const outOfScope = await post("/admin/lsydevice/resetSecret", "acc-D1a", { id: other }, "it");
    expect(outOfScope.statusCode).toBe(404);
    expect(outOfScope.json().data).toBeNull();

    const own = world.devices.get("dev-1a")?.id as number;
    const ownSecret = await issueDeviceSecret(runtime.db, own);
    // The installer sees dev-1a but may not edit devices; an end user neither.
    for (const who of ["acc-I1a", "u1a"]) {
      const refused = await post("/admin/lsydevice/resetSecret", who, { id: own });
      expect(refused.statusCode).toBe(403);
    }
    expect(await connects("dev-2a", secret)).toBe(true);
    expect(await connects("dev-1a", ownSecret)).toBe(true);
  });
});
