import { LOCALES } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/accounts.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * What a refused field reads like, in every language: named by its own label (a mode's code is not
 * a "verification code"), a setting by its register's name, a field left out as required, and
 * never a raw identifier such as `chargeSoc`.
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
});
afterAll(() => t.close());

const post = (url: string, payload: object, lang = "en-US") =>
  t.app.inject({ method: "POST", url, payload, headers: { ...bearer(admin), "accept-language": lang } });
const get = (url: string, lang = "en-US") =>
  t.app.inject({ method: "GET", url, headers: { ...bearer(admin), "accept-language": lang } });
const fields = (r: { json(): unknown }) =>
  Object.fromEntries(
    (r.json() as { data: { fields: { field: string; message: string }[] } }).data.fields.map((f) => [f.field, f.message]),
  );

const mode = {
  code: "M1",
  name: "Mode",
  description: "Mode",
  chargeSoc: 95,
  sellSoc: 30,
  dischargeOffSoc: 15,
  periodsText: "00:00-23:59",
};
/** "Verification code" as each language says it: the captcha's field, never another code's. */
const VERIFICATION = ["验证码", "Verification code", "Codice di verifica", "Código de verificación", "認証コード"];

describe("refusals name each field by its own label", () => {
  it("calls the code of modes, alarm control and fault codes by its name in every language", async () => {
    for (const lang of LOCALES) {
      const refusals = [
        fields(await post("/admin/mode/save", { ...mode, code: 5 }, lang)).code,
        fields(await post("/admin/lsyalarmcontrol/save", { code: 70_000, name: "A", description: "A" }, lang)).code,
        fields(await post("/admin/lsyfault/save", { code: 0, level: 1, systemType: 1, texts: {} }, lang)).code,
      ];
      for (const message of refusals) {
        expect(message, lang).toBeTruthy();
        for (const word of VERIFICATION) expect(message, lang).not.toContain(word);
      }
    }
    expect(fields(await post("/admin/mode/save", { ...mode, code: 5 })).code).toBe("Mode code has the wrong type");
    expect(fields(await post("/admin/lsyalarmcontrol/save", { code: 70_000, name: "A", description: "A" })).code).toBe(
      "Alarm code must be at most 65535",
    );
  });

  it("never shows a raw field identifier, in any language", async () => {
    for (const lang of LOCALES) {
      const r = await post("/admin/mode/save", { ...mode, chargeSoc: 101, sellSoc: "x" }, lang);
      const messages = Object.values(fields(r)).join(" ");
      expect(messages, lang).not.toMatch(/chargeSoc|sellSoc/);
      const v = await post("/admin/app/version/save", { type: 3, versionCode: "1.0.0", versionName: "" }, lang);
      expect(Object.values(fields(v)).join(" "), lang).not.toMatch(/versionName/);
    }
  });

  it("says required for a field left out or null, not wrong type", async () => {
    expect(fields(await get("/sys/menu/info"))).toEqual({ id: "ID is required" });
    const device = await registerDevice(t.db, { sn: uniqueSerial("WORD"), phaseType: 2 });
    for (const beginTime of [null, undefined, ""]) {
      const r = await post("/admin/lsydevicealarm/edit", {
        deviceId: device.id,
        faultCode: 2001,
        beginTime,
        endTime: Date.now(),
        action: "delete",
      });
      expect(r.statusCode).toBe(400);
      expect(fields(r)).toEqual({ beginTime: "Start time is required" });
    }
  });

  it("refuses a number beyond what its register holds, naming the field", async () => {
    const device = await registerDevice(t.db, { sn: uniqueSerial("WORD"), phaseType: 2 });
    const r = await post("/admin/generator/operate", {
      deviceId: device.id,
      on: false,
      ratedPowerKw: 20,
      availablePct: 80,
      controlMode: "manual",
      slots: [],
      outputMode: 0,
      chargePowerKw: 1e308,
    });
    expect(r.statusCode).toBe(400);
    expect(fields(r)).toEqual({ chargePowerKw: "Battery charging power must be at most 50" });
  });

  it("names a setting out of range by the setting's name", async () => {
    const device = await registerDevice(t.db, { sn: uniqueSerial("WORD"), phaseType: 2 });
    const r = await post("/admin/param/set/update", {
      deviceId: device.id,
      values: { TP_0X03_1053: 9_999 },
      queueIfOffline: true,
    });
    expect(r.statusCode).toBe(400);
    expect(Object.values(fields(r))[0]).toMatch(/^Battery Depth of Discharge must be between/);
  });
});
