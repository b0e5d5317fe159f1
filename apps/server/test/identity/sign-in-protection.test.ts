import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChallenges } from "../../src/modules/auth/challenges.ts";
import { createAccount } from "../helpers/accounts.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    captcha: true,
    signIn: { accountFailures: 3, lockMinutes: 10, addressFailures: 8, addressWindowMinutes: 15 },
  });
});
afterAll(() => t.close());

let address = 0;
/** Each test signs in from its own address, so the per-address limit is tested on purpose only. */
const nextAddress = () => `10.1.0.${++address}`;

const login = (body: object, ip: string, lang = "en-US") =>
  t.app.inject({
    method: "POST",
    url: "/login?grant_type=admin",
    payload: body,
    remoteAddress: ip,
    headers: { "accept-language": lang },
  });

/** A captcha whose text the test knows (the image route is tested on its own below). */
async function knownCaptcha(key: string, text = "K7QX") {
  await createChallenges(t.db).put("captcha", key, 300, { text });
  return { randomStr: key, code: text.toLowerCase() };
}

describe("captcha image", () => {
  it("answers a PNG that is not cached and opens a challenge for the randomStr", async () => {
    const response = await t.app.inject({ method: "GET", url: "/sys/code?randomStr=abcdefgh123" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/png");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    const { rows } = await t.db.query("SELECT kind FROM auth_challenge WHERE key = 'abcdefgh123'");
    expect(rows).toEqual([{ kind: "captcha" }]);
  });

  it("refuses a malformed randomStr with the field named", async () => {
    const response = await t.app.inject({ method: "GET", url: "/sys/code?randomStr=x", headers: { "accept-language": "en-US" } });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.fields[0].field).toBe("randomStr");
  });
});

describe("sign-in with the captcha on", () => {
  it("tells the sign-in page to ask for it", async () => {
    expect((await t.app.inject({ method: "GET", url: "/auth/sign-in/settings" })).json().data).toEqual({ captcha: true });
  });

  it("asks for the captcha or slide verification first (428)", async () => {
    const response = await login({ username: "admin", password: ADMIN_PASSWORD }, nextAddress());
    expect(response.statusCode).toBe(428);
    expect(response.json()).toMatchObject({
      code: 1,
      errorCode: "428",
      msg: "Please complete the slide verification or enter the verification code",
    });
  });

  it("refuses a wrong captcha (428, translated) and the captcha works once only", async () => {
    const ip = nextAddress();
    const wrong = await login(
      { username: "admin", password: ADMIN_PASSWORD, ...(await knownCaptcha("wrongcase1")), code: "AAAA" },
      ip,
      "it",
    );
    expect(wrong.statusCode).toBe(428);
    expect(wrong.json().msg).toBe("Codice di verifica errato, inseriscilo di nuovo");
    const captcha = await knownCaptcha("rightcase1");
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, ...captcha }, ip)).statusCode).toBe(200);
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, ...captcha }, ip)).statusCode).toBe(428);
  });

  it("accepts a solved slide puzzle once, and refuses a miss or a drop faster than a hand", async () => {
    const ip = nextAddress();
    const puzzle = await t.app.inject({ method: "GET", url: "/code?randomStr=slidecase1" });
    expect(puzzle.json().data).toMatchObject({ width: 300, height: 150, pieceSize: 44 });
    expect(puzzle.json().data.background).toMatch(/^data:image\/png;base64,/);
    const gap = (await t.db.query<{ answer_x: number }>("SELECT answer_x FROM auth_challenge WHERE key = 'slidecase1'")).rows[0]
      ?.answer_x as number;
    const check = (randomStr: string, x: number) =>
      t.app.inject({ method: "POST", url: "/code/check", payload: { randomStr, x }, headers: { "accept-language": "en-US" } });

    const tooFast = await check("slidecase1", gap);
    expect(tooFast.statusCode).toBe(428);
    await t.app.inject({ method: "GET", url: "/code?randomStr=slidecase2" });
    const gap2 = (await t.db.query<{ answer_x: number }>("SELECT answer_x FROM auth_challenge WHERE key = 'slidecase2'")).rows[0]
      ?.answer_x as number;
    await new Promise((r) => setTimeout(r, 350));
    const missed = await check("slidecase2", gap2 + 20);
    expect(missed.json()).toMatchObject({ errorCode: "428", msg: "Verification failed; please drag the piece again" });
    expect((await check("slidecase2", gap2)).statusCode).toBe(428); // the puzzle was used up by the miss

    await t.app.inject({ method: "GET", url: "/code?randomStr=slidecase3" });
    const gap3 = (await t.db.query<{ answer_x: number }>("SELECT answer_x FROM auth_challenge WHERE key = 'slidecase3'")).rows[0]
      ?.answer_x as number;
    await new Promise((r) => setTimeout(r, 350));
    const solved = await check("slidecase3", gap3 + 3);
    expect(solved.statusCode).toBe(200);
    const { proof } = solved.json().data;
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, slideProof: proof }, ip)).statusCode).toBe(200);
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, slideProof: proof }, ip)).statusCode).toBe(428);
  });
});

describe("brute-force protection", () => {
  it("locks an account after repeated failures; the right password then says so; the cool-down releases it", async () => {
    await createAccount(t.db, { username: "gina", password: "Gina12345" });
    const ip = nextAddress();
    for (let i = 0; i < 3; i++) {
      const failed = await login({ username: "gina", password: `Wrong${i}abc`, ...(await knownCaptcha(`gina-fail-${i}`)) }, ip);
      expect(failed.statusCode).toBe(426);
    }
    const locked = await login({ username: "gina", password: "Gina12345", ...(await knownCaptcha("gina-locked")) }, ip);
    expect(locked.statusCode).toBe(400);
    expect(locked.json().msg).toBe(
      "Too many failed sign-ins: the account is locked for 10 more minutes, or until an administrator unlocks it",
    );
    const { rows } = await t.db.query("SELECT status, failed_logins FROM sys_user WHERE username = 'gina'");
    expect(rows[0]).toEqual({ status: 1, failed_logins: 3 });

    await t.db.query("UPDATE sys_user SET locked_until = now() - interval '1 second' WHERE username = 'gina'");
    const released = await login({ username: "gina", password: "Gina12345", ...(await knownCaptcha("gina-released")) }, ip);
    expect(released.statusCode).toBe(200);
    expect(
      (await t.db.query("SELECT status, failed_logins, locked_until FROM sys_user WHERE username = 'gina'")).rows[0],
    ).toEqual({
      status: 0,
      failed_logins: 0,
      locked_until: null,
    });
  });

  it("forgets earlier failures after a successful sign-in", async () => {
    await createAccount(t.db, { username: "hal", password: "Hal123456" });
    const ip = nextAddress();
    for (const attempt of ["a", "b", "ok", "c", "d"]) {
      const password = attempt === "ok" ? "Hal123456" : `Wrong${attempt}123`;
      await login({ username: "hal", password, ...(await knownCaptcha(`hal-${attempt}`)) }, ip);
    }
    expect((await t.db.query("SELECT status, failed_logins FROM sys_user WHERE username = 'hal'")).rows[0]).toEqual({
      status: 0,
      failed_logins: 2,
    });
  });

  it("limits failures per address (429) whatever the account, without touching other addresses", async () => {
    const ip = nextAddress();
    for (let i = 0; i < 8; i++) {
      const response = await login({ username: `nobody${i}`, password: "Wrong12345", ...(await knownCaptcha(`addr-${i}`)) }, ip);
      expect(response.statusCode).toBe(426);
    }
    const blocked = await login(
      { username: "admin", password: ADMIN_PASSWORD, ...(await knownCaptcha("addr-blocked")) },
      ip,
      "es",
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ errorCode: "429", msg: expect.stringContaining("15 minutos") });
    const elsewhere = await login(
      { username: "admin", password: ADMIN_PASSWORD, ...(await knownCaptcha("addr-other")) },
      nextAddress(),
    );
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe("a wrong current password when changing it counts as a failed sign-in", () => {
  const signInAs = async (username: string, password: string, ip: string) => {
    const response = await login({ username, password, ...(await knownCaptcha(`${username}-${ip}-${address}`)) }, ip);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.access_token as string;
  };
  const change = (token: string, oldPassword: string, ip: string) =>
    t.app.inject({
      method: "POST",
      url: "/sys/user/password/edit",
      payload: { oldPassword, newPassword: "Changed2025", confirmPassword: "Changed2025" },
      remoteAddress: ip,
      headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
    });
  const account = async (username: string) =>
    (
      await t.db.query("SELECT status, failed_logins, locked_until IS NOT NULL AS locked FROM sys_user WHERE username = $1", [
        username,
      ])
    ).rows[0];

  it("locks the account at the same limit, ending the session that guessed; a right one forgets the failures", async () => {
    await createAccount(t.db, { username: "ivan", password: "Ivan12345" });
    const ip = nextAddress();
    const token = await signInAs("ivan", "Ivan12345", ip);
    for (const guess of ["Guess1abc", "Guess2abc"]) {
      const wrong = await change(token, guess, ip);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().data.fields).toEqual([{ field: "oldPassword", message: "The current password is wrong" }]);
    }
    expect(await account("ivan")).toEqual({ status: 0, failed_logins: 2, locked: false });
    expect((await change(token, "Guess3abc", ip)).statusCode).toBe(400);
    expect(await account("ivan")).toEqual({ status: 1, failed_logins: 3, locked: true });
    // The session that guessed is over, and the right password now hears of the lock.
    expect((await change(token, "Ivan12345", ip)).statusCode).toBe(401);
    const locked = await login({ username: "ivan", password: "Ivan12345", ...(await knownCaptcha("ivan-locked")) }, ip);
    expect(locked.json().msg).toBe(
      "Too many failed sign-ins: the account is locked for 10 more minutes, or until an administrator unlocks it",
    );

    await createAccount(t.db, { username: "jill", password: "Jill12345" });
    const jill = await signInAs("jill", "Jill12345", ip);
    expect((await change(jill, "Guess1abc", ip)).statusCode).toBe(400);
    expect((await change(jill, "Jill12345", ip)).statusCode).toBe(200);
    expect(await account("jill")).toEqual({ status: 0, failed_logins: 0, locked: false });
  });

  it("counts towards the address limit: past it the change is refused (429), and so is sign-in from there", async () => {
    await createAccount(t.db, { username: "kim", password: "Kim123456" });
    const ip = nextAddress();
    const token = await signInAs("kim", "Kim123456", ip);
    for (const guess of ["Guess1abc", "Guess2abc"]) expect((await change(token, guess, ip)).statusCode).toBe(400);
    // Six more failures from the address (other accounts) make eight with the two guesses: the limit.
    for (let i = 0; i < 6; i++) {
      await login({ username: `nobody-kim${i}`, password: "Wrong12345", ...(await knownCaptcha(`kim-addr-${i}`)) }, ip);
    }
    const blocked = await change(token, "Kim123456", ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errorCode).toBe("429");
    expect(await account("kim")).toEqual({ status: 0, failed_logins: 2, locked: false });
    const signIn = await login({ username: "admin", password: ADMIN_PASSWORD, ...(await knownCaptcha("kim-admin")) }, ip);
    expect(signIn.statusCode).toBe(429);
    // Elsewhere the right password still changes it.
    expect((await change(token, "Kim123456", nextAddress())).statusCode).toBe(200);
  });
});
