import type { FastifyInstance } from "fastify";
import { type AppDeps, buildApp } from "../../src/app.ts";
import type { Db } from "../../src/db/db.ts";
import type { FileStore } from "../../src/files/file-store.ts";
import { createTranslator } from "../../src/i18n/translator.ts";
import { seedFoundation } from "../../src/seed/foundation.seed.ts";
import { seedIdentity } from "../../src/seed/identity.seed.ts";
import { createTestDb } from "./test-db.ts";

export const ADMIN_PASSWORD = "Admin12345";

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/**
 * The real application on a fresh database, seeded like a first start, driven through
 * Fastify's inject. Every answer is checked against its contract.
 */
export async function createTestApp(
  options: {
    brokerConnected?: () => boolean;
    accessTokenTtlS?: number;
    sessionCacheS?: number;
    extend?: (app: FastifyInstance) => void;
    /** Captcha and slide verification at sign-in: off unless a test is about them (as ESS_CAPTCHA=off). */
    captcha?: boolean;
    /** The 000 repeat guard: off unless a test is about it (tests repeat identical calls on purpose). */
    repeatGuardMs?: number;
    /** The built console to serve (none unless a test is about it). */
    webDist?: string;
    /** The file store on the test's database (a temporary folder unless given). */
    files?: (db: Db) => FileStore;
  } & Pick<AppDeps, "signIn" | "demoMode" | "smsSender" | "socialProviders"> = {},
): Promise<TestApp> {
  const db = await createTestDb();
  await seedFoundation(db, ADMIN_PASSWORD);
  const translator = await createTranslator();
  await seedIdentity(db, 1, translator);
  const app = await buildApp({
    db,
    translator,
    broker: { isConnected: options.brokerConnected ?? (() => true) },
    accessTokenTtlS: options.accessTokenTtlS ?? 3600,
    refreshTokenTtlS: 86_400,
    // Off by default so a test that changes the database sees the effect at once.
    sessionCacheS: options.sessionCacheS ?? 0,
    webDist: options.webDist ?? null,
    checkResponses: true,
    extend: options.extend,
    signIn: { ...options.signIn, captcha: options.captcha ?? false },
    repeatGuardMs: options.repeatGuardMs ?? 0,
    demoMode: options.demoMode ?? false,
    ...(options.files ? { files: options.files(db) } : {}),
    ...(options.smsSender ? { smsSender: options.smsSender } : {}),
    ...(options.socialProviders ? { socialProviders: options.socialProviders } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

export async function signIn(app: FastifyInstance, username = "admin", password = ADMIN_PASSWORD): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/login?grant_type=admin",
    payload: { username, password },
  });
  const body = response.json() as { code: number; data: { access_token: string } };
  if (body.code !== 0) throw new Error(`sign-in failed: ${response.body}`);
  return body.data.access_token;
}
