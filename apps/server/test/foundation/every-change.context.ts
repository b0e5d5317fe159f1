import { API, type RouteContract } from "@ess/contracts";
import { LOCALES } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/db/db.ts";
import type { SmsSender, SocialProvider } from "../../src/modules/auth/mobile-sign-in.ts";
import { hashPassword } from "../../src/modules/auth/password.ts";
import type { Runtime } from "../../src/runtime.ts";
import { bearer, signInTokens } from "../helpers/accounts.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { signIn } from "../helpers/test-app.ts";

/** A change request as the walk sends it: the route's path with this query, body and caller. */
export interface ChangeRequest {
  query?: Record<string, string>;
  body?: unknown;
  /** Bearer token; absent for public routes. */
  token?: string;
  headers?: Record<string, string>;
}

export const sentCodes: string[] = [];
export const testSms: SmsSender = { send: async (message) => void sentCodes.push(message.code) };
/** An OAuth provider for the walk: the code "good-N" belongs to the external account "ext-N". */
export const testSocial: SocialProvider = {
  id: "GITHUB",
  identify: async (code) => (/^good-\d+$/.test(code) ? `ext-${code.slice(5)}` : null),
};

let serial = 0;
/** A number no other sample of the walk uses. */
export const nextNumber = () => ++serial;
/** A name part no other sample (nor another run on a shared database) uses. */
export const next = () => `${process.pid.toString(36)}${nextNumber()}`;
export const PASSWORD = "Walk2025xy";
export const texts = (info: string) => Object.fromEntries(LOCALES.map((l) => [l, { info, causes: "Causes", remedy: "Remedy" }]));

/** What the samples build their requests from: the app, the database and the administrator's token. */
export function sampleContext(app: FastifyInstance, db: Db, admin: string) {
  async function post<T = { id: number }>(url: string, body: unknown, token = admin): Promise<T> {
    const r = await app.inject({ method: "POST", url, payload: body as object, headers: bearer(token) });
    if (r.statusCode !== 200) throw new Error(`preparing ${url}: ${r.body}`);
    return r.json().data as T;
  }
  // One password hash for every account the walk makes: argon2 is slow on purpose.
  const hash = hashPassword(PASSWORD);
  /** An account (back office administrator, or end user), signed in unless only its id is needed. */
  async function account(options: { userType?: 0 | 2; phone?: string; signIn?: boolean } = {}) {
    const username = `walk-${next()}`;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type, phone) VALUES (1, $1, $2, $1, $3, $4) RETURNING id`,
      [username, await hash, options.userType ?? 0, options.phone ?? null],
    );
    const id = rows[0]?.id as number;
    if ((options.userType ?? 0) === 0) {
      await db.query(
        "INSERT INTO sys_user_role (user_id, role_id) SELECT $1, id FROM sys_role WHERE tenant_id = 1 AND code = 'ADMIN'",
        [id],
      );
    }
    const tokens = options.signIn === false ? null : await signInTokens(app, username, PASSWORD);
    return { id, username, token: tokens?.access_token as string, refresh: tokens?.refresh_token as string };
  }
  const device = async (online = false) => {
    const d = await registerDevice(db, { sn: uniqueSerial("WALK"), phaseType: 2, timeZone: "Europe/Rome" });
    if (online) await db.query("UPDATE device SET online_status = 1, last_seen_at = now() WHERE id = $1", [d.id]);
    return d;
  };
  const org = (kind: "distributor" | "installer" = "distributor", parentId?: number) => {
    const key = next();
    return post("/admin/lsyinstaller/save", {
      kind,
      ...(parentId ? { parentId } : {}),
      name: `Walk ${kind} ${key}`,
      authorisationCode: `AUTH-${key}`,
      contact: "Walker",
      email: `walk${key}@example.com`,
      account: { username: `walk-org-${key}`, password: PASSWORD },
    });
  };
  const endUser = () => account({ userType: 2, signIn: false });
  const firmware = async () => {
    const key = next();
    const r = await app.inject({
      method: "POST",
      url: `/admin/file/info/upload/file?fileName=mcu-${key}.bin`,
      payload: Buffer.from(`firmware ${key}`.repeat(20)),
      headers: { ...bearer(admin), "content-type": "application/octet-stream" },
    });
    if (r.statusCode !== 200) throw new Error(`upload: ${r.body}`);
    const version = await post("/admin/app/version/save", {
      type: 3,
      versionCode: `9.${nextNumber()}.${process.pid}`,
      versionName: `Walk ${key}`,
      fileId: r.json().data.fileId,
    });
    return version.id;
  };
  const campaign = async () => {
    const d = await device();
    await db.query("INSERT INTO device_firmware (device_id, firmware_type, version) VALUES ($1, 3, '1.0')", [d.id]);
    return post("/admin/lsyupgrade/issued", {
      name: `Walk ${next()}`,
      versionId: await firmware(),
      times: ["2030-01-01T00:00:00Z"],
      deviceIds: [d.id],
    });
  };
  const mode = () =>
    post("/admin/mode/save", {
      code: `W${next()}`.slice(0, 32),
      name: "Walk",
      description: "Walk",
      chargeSoc: 95,
      sellSoc: 30,
      dischargeOffSoc: 15,
      periodsText: "00:00-23:59",
    });
  const fault = () =>
    post("/admin/lsyfault/save", { code: 60_000 + nextNumber(), level: 1, systemType: 1, texts: texts("Walk") });
  const control = () => post("/admin/lsyalarmcontrol/save", { code: 40_000 + nextNumber(), name: "Walk", description: "Walk" });
  const role = () =>
    post("/sys/role/save", {
      roleCode: `WALK_${next()}`.toUpperCase(),
      roleName: "Walk",
      userType: 0,
      permissions: ["sys.user.view"],
    });
  const menu = () => post("/sys/menu/save", { menuType: "button", label: "Walk", permission: "sys.user.view" });
  const roleId = async (code: string) =>
    (await db.query<{ id: number }>("SELECT id FROM sys_role WHERE tenant_id = 1 AND code = $1", [code])).rows[0]?.id as number;
  const cancellation = async () => {
    const who = await account({ userType: 2 });
    return post("/admin/user/logout/apply", { type: 2, reason: "Walk" }, who.token);
  };
  const boundDevice = async () => {
    const d = await device();
    const user = await endUser();
    await post("/admin/lsydevice/bindUser", { id: d.id, userId: user.id });
    return d;
  };
  /** A referrer with a referral code and a referee owning a device: what a claim needs. */
  const referralParties = async () => {
    const referrer = await account({ userType: 2 });
    const { code } = await post<{ code: string }>(
      "/app/referral/bank",
      { bsb: "062-000", accountNumber: "12345678", accountName: "Walk Referrer" },
      referrer.token,
    );
    const referee = await account({ userType: 2 });
    const d = await device();
    await post("/admin/lsydevice/bindUser", { id: d.id, userId: referee.id });
    return { code, deviceSn: d.sn, referee };
  };
  const cashback = async () => {
    const parties = await referralParties();
    return post("/app/referral/claim", { code: parties.code, deviceSn: parties.deviceSn }, parties.referee.token);
  };
  return {
    db,
    post,
    account,
    referralParties,
    cashback,
    device,
    org,
    endUser,
    firmware,
    campaign,
    mode,
    fault,
    control,
    role,
    menu,
    roleId,
    cancellation,
    boundDevice,
  };
}

export type SampleContext = ReturnType<typeof sampleContext>;
export type Sample = (c: SampleContext, admin: string) => Promise<ChangeRequest>;

/** Every route of the API registry (the OpenAPI document is built from it), named group.name. */
export const REGISTRY_ROUTES = Object.entries(API).flatMap(([group, list]) =>
  Object.entries(list as Record<string, RouteContract>).map(([name, contract]) => ({ id: `${group}.${name}`, contract })),
);

/**
 * The console the walks over every route run against, its administrator signed in: nothing in
 * the background while a walk reads what changed — silent devices stay online, OTA orders wait,
 * a command nobody answers ends quickly — and no repeat guard or session cache between requests.
 */
export async function startWalkRuntime(): Promise<{ runtime: Runtime; admin: string; context: SampleContext }> {
  const runtime = await startTestRuntime(
    {
      ESS_REPEAT_GUARD_MS: "0",
      ESS_SESSION_CACHE_S: "0",
      ESS_DEVICE_OFFLINE_AFTER_S: "86400",
      ESS_OTA_CONFIRM_TIMEOUT_S: "86400",
      ESS_PAGE_READ_TIMEOUT_MS: "500",
    },
    { smsSender: testSms, socialProviders: [testSocial] },
  );
  const admin = await signIn(runtime.app);
  return { runtime, admin, context: sampleContext(runtime.app, runtime.db, admin) };
}
