import { ERROR_CATALOGUE, type ErrorKind, type Locale } from "@ess/domain";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTranslator, type Translate } from "../../src/i18n/translator.ts";
import { createChallenges } from "../../src/modules/auth/challenges.ts";
import type { SmsSender } from "../../src/modules/auth/mobile-sign-in.ts";
import { bearer, createAccount, signInTokens } from "../helpers/accounts.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Every code of the error catalogue (spec §8) reached through HTTP, with the status, the envelope
 * and the message in two languages.
 */
let t: TestApp;
let demo: TestApp;
let translate: (locale: Locale) => Translate;
const codes: string[] = [];
const sms: SmsSender = { send: async ({ code }) => void codes.push(code) };

beforeAll(async () => {
  t = await createTestApp({
    captcha: true,
    repeatGuardMs: 60_000,
    smsSender: sms,
    signIn: { addressFailures: 2, addressWindowMinutes: 15, accountFailures: 50, lockMinutes: 15 },
  });
  demo = await createTestApp({ demoMode: true });
  translate = await createTranslator();
  await createAccount(t.db, { username: "eng", password: "Eng123456", roles: ["ENGINEER"] });
});
afterAll(async () => {
  await t.close();
  await demo.close();
});

let n = 0;
async function captcha() {
  const key = `captcha-${++n}-abcdef`;
  await createChallenges(t.db).put("captcha", key, 300, { text: "ABCD" });
  return { randomStr: key, code: "ABCD" };
}
/** The engineer signs in with a fresh captcha each time (a captcha works once). */
const engineerToken = async (): Promise<string> =>
  (
    await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      payload: { username: "eng", password: "Eng123456", ...(await captcha()) },
    })
  ).json().data.access_token;
const adminToken = async (app: TestApp) => {
  if (app === t) return (await signInTokens(t.app, "admin", ADMIN_PASSWORD).catch(() => null))?.access_token;
  return (
    await app.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      payload: { username: "admin", password: ADMIN_PASSWORD },
    })
  ).json().data.access_token;
};

type Case = [code: string, kind: ErrorKind, messageKey: string | null, call: (lang: string) => Promise<LightMyRequestResponse>];

const cases: Case[] = [
  [
    "000",
    "tooFrequent",
    null,
    async (lang) => {
      const token = (
        await t.app.inject({
          method: "POST",
          url: "/login?grant_type=admin",
          payload: { username: "admin", password: ADMIN_PASSWORD, ...(await captcha()) },
        })
      ).json().data.access_token;
      const save = () =>
        t.app.inject({
          method: "POST",
          url: "/sys/menu/save",
          payload: { menuType: "left", label: lang, path: "/x", component: "x", sort: 1 },
          headers: { ...bearer(token), "accept-language": lang },
        });
      await save();
      return save();
    },
  ],
  [
    "401",
    "unauthorized",
    null,
    (lang) => t.app.inject({ method: "GET", url: "/sys/user/info", headers: { "accept-language": lang } }),
  ],
  [
    "401",
    "sessionExpired",
    null,
    async (lang) => {
      const token = await engineerToken();
      await t.db.query("UPDATE auth_session SET access_expires_at = now() - interval '1 second' WHERE revoked_at IS NULL");
      return t.app.inject({ method: "GET", url: "/sys/user/info", headers: { ...bearer(token), "accept-language": lang } });
    },
  ],
  [
    "403",
    "forbidden",
    null,
    async (lang) => {
      const token = await engineerToken();
      return t.app.inject({ method: "GET", url: "/sys/menu/tree", headers: { ...bearer(token), "accept-language": lang } });
    },
  ],
  [
    "404",
    "notFound",
    null,
    async (lang) => {
      const token = await engineerToken();
      return t.app.inject({ method: "GET", url: "/sys/user/999999", headers: { ...bearer(token), "accept-language": lang } });
    },
  ],
  [
    "417",
    "unboundLogin",
    null,
    async (lang) => {
      const number = `+3933300${String(++n).padStart(5, "0")}`;
      await t.app.inject({ method: "POST", url: "/auth/mobile/code", payload: { mobile: number }, remoteAddress: `10.9.${n}.1` });
      return t.app.inject({
        method: "POST",
        url: `/auth/mobile/token/sms?grant_type=mobile&mobile=SMS@${encodeURIComponent(number)}&code=${codes.at(-1)}`,
        headers: { "accept-language": lang },
      });
    },
  ],
  [
    "423",
    "demoForbidden",
    null,
    async (lang) => {
      const token = await adminToken(demo);
      return demo.app.inject({
        method: "POST",
        url: "/sys/role/del",
        payload: { id: 1 },
        headers: { ...bearer(token), "accept-language": lang },
      });
    },
  ],
  [
    "426",
    "badCredentials",
    null,
    async (lang) =>
      t.app.inject({
        method: "POST",
        url: "/login?grant_type=admin",
        remoteAddress: `10.8.${++n}.1`,
        payload: { username: "admin", password: "Wrong2025x", ...(await captcha()) },
        headers: { "accept-language": lang },
      }),
  ],
  [
    "428",
    "badCaptcha",
    "auth:captcha.required",
    (lang) =>
      t.app.inject({
        method: "POST",
        url: "/login?grant_type=admin",
        remoteAddress: `10.6.${++n}.1`,
        payload: { username: "admin", password: ADMIN_PASSWORD },
        headers: { "accept-language": lang },
      }),
  ],
  [
    "428",
    "badCaptcha",
    null,
    async (lang) =>
      t.app.inject({
        method: "POST",
        url: "/login?grant_type=admin",
        payload: { username: "admin", password: ADMIN_PASSWORD, ...(await captcha()), code: "ZZZZ" },
        headers: { "accept-language": lang },
      }),
  ],
  [
    "429",
    "rateLimited",
    "auth:login.addressBlocked",
    async (lang) => {
      const ip = `10.7.${++n}.1`;
      for (let i = 0; i < 2; i++) {
        await t.app.inject({
          method: "POST",
          url: "/login?grant_type=admin",
          remoteAddress: ip,
          payload: { username: "x", password: `Wrong${i}2025`, ...(await captcha()) },
        });
      }
      return t.app.inject({
        method: "POST",
        url: "/login?grant_type=admin",
        remoteAddress: ip,
        payload: { username: "admin", password: ADMIN_PASSWORD, ...(await captcha()) },
        headers: { "accept-language": lang },
      });
    },
  ],
  [
    "479",
    "demoNoPermission",
    null,
    async (lang) => {
      const token = await adminToken(demo);
      return demo.app.inject({ method: "GET", url: "/sys/user/page", headers: { ...bearer(token), "accept-language": lang } });
    },
  ],
];

describe("the error catalogue through HTTP", () => {
  it("covers every code of spec §8", () => {
    const covered = new Set(cases.map(([code]) => code));
    for (const code of ["000", "401", "403", "404", "417", "423", "426", "428", "429", "479"])
      expect(covered, code).toContain(code);
  });

  for (const [code, kind, messageKey, call] of cases) {
    it(`${code} (${kind}${messageKey ? `, ${messageKey}` : ""}) with its status, envelope and message in zh-CN and it`, async () => {
      for (const lang of ["zh-CN", "it"] as const) {
        const response = await call(lang);
        const entry = ERROR_CATALOGUE[kind];
        const message = translate(lang)(messageKey ?? `errors:${kind}`, { minutes: 15 });
        expect(response.statusCode, `${lang}: ${response.body}`).toBe(entry.status);
        expect(response.json()).toEqual({ code: entry.bodyCode, msg: message, data: null, errorCode: code });
      }
    });
  }
});
