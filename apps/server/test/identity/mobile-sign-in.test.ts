import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SmsSender, SocialProvider } from "../../src/modules/auth/mobile-sign-in.ts";
import { bearer, createAccount, signInTokens } from "../helpers/accounts.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const sent: { to: string; code: string; text: string }[] = [];
const sms: SmsSender = { send: async (message) => void sent.push(message) };
/** Stands in for an OAuth provider: the authorisation code "good-N" belongs to account "ext-N". */
const github: SocialProvider = {
  id: "GITHUB",
  identify: async (code) => (/^good-\d+$/.test(code) ? `ext-${code.slice(5)}` : null),
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ smsSender: sms, socialProviders: [github] });
  const id = await createAccount(t.db, { username: "ivy", password: "Ivy123456" });
  await t.db.query("UPDATE sys_user SET phone = '+39 333 123 4567' WHERE id = $1", [id]);
});
afterAll(() => t.close());

let address = 0;
const sendCode = (mobile: string, lang = "en-US") =>
  t.app.inject({
    method: "POST",
    url: "/auth/mobile/code",
    payload: { mobile },
    remoteAddress: `10.2.0.${++address}`,
    headers: { "accept-language": lang },
  });
const smsSignIn = (mobile: string, code: string) =>
  t.app.inject({
    method: "POST",
    url: `/auth/mobile/token/sms?grant_type=mobile&mobile=${encodeURIComponent(`SMS@${mobile}`)}&code=${code}`,
    headers: { "accept-language": "en-US" },
  });
const lastCode = () => sent.at(-1)?.code as string;

describe("sign-in by SMS code", () => {
  it("sends a code in the caller's language and signs in the account that has the number", async () => {
    const response = await sendCode("+393331234567", "it");
    expect(response.json()).toMatchObject({ code: 0, data: { expiresIn: 300 } });
    expect(sent.at(-1)).toMatchObject({
      to: "+393331234567",
      text: `Il tuo codice di accesso a ESS Console è ${lastCode()}; è valido per 5 minuti.`,
    });
    const signedIn = await smsSignIn("+39 333 1234567", lastCode());
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data).toMatchObject({ token_type: "bearer", sfFirst: false, user_info: { username: "ivy" } });
    const info = await t.app.inject({ method: "GET", url: "/sys/user/info", headers: bearer(signedIn.json().data.access_token) });
    expect(info.json().data.user.username).toBe("ivy");
  });

  it("answers 428 to a wrong code and gives up the code after five tries", async () => {
    await sendCode("+393331234567");
    const code = lastCode();
    const wrong = code === "000000" ? "000001" : "000000";
    for (let i = 0; i < 5; i++) {
      const response = await smsSignIn("+393331234567", wrong);
      expect(response.json()).toMatchObject({ errorCode: "428", msg: "The SMS code is wrong or has expired" });
    }
    expect((await smsSignIn("+393331234567", code)).statusCode).toBe(428);
  });

  it("answers 417 to a proven number that no account has bound", async () => {
    await sendCode("+61 400 000 111");
    const response = await smsSignIn("+61400000111", lastCode());
    expect(response.statusCode).toBe(417);
    expect(response.json()).toMatchObject({
      errorCode: "417",
      msg: "No sign-in account is bound; sign in with your password and bind it first",
    });
  });

  it("sends one code per number per minute (429)", async () => {
    expect((await sendCode("+44 7400 123456")).statusCode).toBe(200);
    const again = await sendCode("+44 7400 123456");
    expect(again.statusCode).toBe(429);
    expect(again.json().msg).toBe("A code was just sent; please wait a minute before asking for another");
  });

  it("refuses a number that is not one, naming the field", async () => {
    const response = await sendCode("call me");
    expect(response.statusCode).toBe(400);
    expect(response.json().data.fields).toEqual([{ field: "mobile", message: "Mobile number is not a valid telephone number" }]);
  });
});

describe("sign-in through a social account", () => {
  const social = (mobile: string) =>
    t.app.inject({
      method: "POST",
      url: `/auth/mobile/token/social?grant_type=mobile&mobile=${encodeURIComponent(mobile)}`,
      headers: { "accept-language": "en-US" },
    });

  it("answers 417 until the account is bound, then signs in", async () => {
    expect((await social("GITHUB@good-7")).statusCode).toBe(417);
    const { access_token } = await signInTokens(t.app, "ivy", "Ivy123456");
    const bind = await t.app.inject({
      method: "POST",
      url: "/sys/user/social/bind",
      payload: { state: "GITHUB", code: "good-7" },
      headers: bearer(access_token),
    });
    expect(bind.statusCode).toBe(200);
    const signedIn = await social("GITHUB@good-7");
    expect(signedIn.json().data.user_info.username).toBe("ivy");
  });

  it("refuses a code the provider rejects (428) and an unknown provider (field named)", async () => {
    expect((await social("GITHUB@forged")).statusCode).toBe(428);
    const unknown = await social("MYSPACE@good-1");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.fields[0].field).toBe("mobile");
  });

  it("will not bind a social account that another user holds", async () => {
    await createAccount(t.db, { username: "jay", password: "Jay123456" });
    const { access_token } = await signInTokens(t.app, "jay", "Jay123456");
    const taken = await t.app.inject({
      method: "POST",
      url: "/sys/user/social/bind",
      payload: { state: "GITHUB", code: "good-7" },
      headers: { ...bearer(access_token), "accept-language": "en-US" },
    });
    expect(taken.statusCode).toBe(409);
    expect((await social("GITHUB@good-7")).json().data.user_info.username).toBe("ivy");
  });
});
