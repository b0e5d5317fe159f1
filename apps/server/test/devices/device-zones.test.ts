import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDevice } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let token: string;
const sns = (records: { sn: string }[]) => records.map((r) => r.sn).sort();
const list = async (query: string) => {
  const response = await t.app.inject({
    method: "GET",
    url: `/admin/lsydevice/page?size=100&${query}`,
    headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
  });
  return response.json();
};

beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app);
  const zones = {
    TZSHANGHAI: "Asia/Shanghai",
    TZPERTH: "Australia/Perth",
    TZKOLKATA: "Asia/Kolkata",
    TZSAOPAULO: "America/Sao_Paulo",
    TZTONGA: "Pacific/Tongatapu",
    TZUTC: "UTC",
  };
  for (const [sn, timeZone] of Object.entries(zones)) await registerDevice(t.db, { sn, timeZone });
}, 120_000);
afterAll(() => t.close());

describe("the device list's time-zone filter", () => {
  it("finds the devices of any catalogue zone, from West 11 to East 13", async () => {
    // East 8: Shanghai and Perth, whose clocks never change.
    expect(sns((await list("utcOffset=8")).data.records)).toEqual(["TZPERTH", "TZSHANGHAI"]);
    // Kolkata is UTC+5:30: East 5.
    expect(sns((await list("utcOffset=5")).data.records)).toEqual(["TZKOLKATA"]);
    expect(sns((await list("utcOffset=-3")).data.records)).toEqual(["TZSAOPAULO"]);
    expect(sns((await list("utcOffset=13")).data.records)).toEqual(["TZTONGA"]);
    expect(sns((await list("utcOffset=0")).data.records)).toEqual(["TZUTC"]);
    expect((await list("utcOffset=-11")).data.records).toEqual([]);
  });

  it("refuses a zone the catalogue does not know", async () => {
    const answer = await list("utcOffset=14");
    expect(answer.code).toBe(1);
    expect(answer.data.fields[0].field).toBe("utcOffset");
  });
});
