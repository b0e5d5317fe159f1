import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/** Personal information: each account changes its own name, gender, date of birth and phone (spec §5). */
let t: TestApp;
let token: string;
const call = apiCaller(
  () => t.app,
  () => token,
);

beforeAll(async () => {
  t = await createTestApp();
  await createAccount(t.db, { username: "paola", name: "Paola", userType: 2, roles: ["END_USER"] });
  token = await signIn(t.app, "paola", "Passw0rd1");
});
afterAll(() => t.close());

describe("personal information", () => {
  it("saves the four fields, the phone in E.164, with an operation-log line", async () => {
    const saved = await call<{ name: string; gender: number; birthDate: string; phone: string }>(
      "POST",
      "/sys/user/profile/edit",
      {
        name: "Paola Verdi",
        gender: 2,
        birthDate: "1988-02-29",
        phone: "138 0013 8000",
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: "Paola Verdi", gender: 2, birthDate: "1988-02-29", phone: "+8613800138000" });
    const read = await call<{ username: string; phone: string }>("GET", "/sys/user/profile");
    expect(read.body.data).toMatchObject({ username: "paola", phone: "+8613800138000" });
    const log = await t.db.query("SELECT status FROM sys_log WHERE operation = 'profile.edit'");
    expect(log.rows).toEqual([{ status: 200 }]);
  });

  it("refuses missing, impossible and future values by their field names, in the caller's language, changing nothing", async () => {
    const missing = await call("POST", "/sys/user/profile/edit", { name: "Paola" }, { language: "es" });
    expect(missing.status).toBe(400);
    for (const field of ["Sexo", "Fecha de nacimiento", "Teléfono"]) expect(missing.body.msg).toContain(field);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const [birthDate, gender] of [
      [tomorrow, 1],
      ["1987-02-29", 1],
      ["1899-12-31", 1],
      ["1990-01-01", 7],
    ] as const) {
      const refused = await call(
        "POST",
        "/sys/user/profile/edit",
        { name: "X", gender, birthDate, phone: "+8613800138000" },
        { language: "en-US" },
      );
      expect(refused.status, birthDate).toBe(400);
      expect(refused.body.msg).toMatch(gender === 7 ? /Gender/ : /Date of birth must be a date from 1900 up to today/);
    }
    const still = await call<{ name: string; birthDate: string }>("GET", "/sys/user/profile");
    expect(still.body.data).toMatchObject({ name: "Paola Verdi", birthDate: "1988-02-29" });
  });
});
