import { uniqueSerial } from "../helpers/devices.ts";
import { CONTENT_CHANGE_SAMPLES } from "./every-change.content-samples.ts";
import { next, nextNumber, PASSWORD, type Sample, sentCodes, texts } from "./every-change.context.ts";

const hide = (deviceId: number) => {
  const at = Date.now() - 3_600_000;
  return { deviceId, faultCode: 2001, beginTime: at - 60_000, endTime: at + 60_000, action: "hide" };
};

/**
 * A request that changes something, for every change route of the API registry. Each prepares
 * its own records first, so that the walk can send it twice: once while the log refuses its line
 * (nothing may change) and once normally (the first change carries the line). A new change route
 * needs an entry here (the walk fails on a route without one).
 */
export const CHANGE_SAMPLES: Record<string, Sample> = {
  "auth.login": async (c) => ({
    body: { username: (await c.account({ signIn: false })).username, password: PASSWORD },
    query: { grant_type: "admin" },
  }),
  "auth.logout": async (c) => ({ token: (await c.account()).token }),
  "auth.passwordEdit": async (c) => ({
    token: (await c.account()).token,
    body: { oldPassword: PASSWORD, newPassword: "Walk2026xy", confirmPassword: "Walk2026xy" },
  }),
  "token.refresh": async (c) => ({
    query: { grant_type: "refresh_token", scope: "server", refresh_token: (await c.account()).refresh },
    headers: { authorization: `Basic ${btoa("ess-console:ess-console")}` },
  }),
  "menu.save": async (_, token) => ({ token, body: { menuType: "button", label: "Walk", permission: "sys.user.view" } }),
  "menu.edit": async (c, token) => ({
    token,
    body: { id: (await c.menu()).id, menuType: "button", label: "Walked", permission: "sys.user.view" },
  }),
  "menu.del": async (c, token) => ({ token, body: { id: (await c.menu()).id } }),
  "mobile.sendCode": async () => ({ body: { mobile: `+39 333 ${String(nextNumber()).padStart(7, "0")}` } }),
  "mobile.sms": async (c) => {
    const phone = `+39 334 ${String(nextNumber()).padStart(7, "0")}`;
    await c.account({ phone, signIn: false });
    await c.post("/auth/mobile/code", { mobile: phone });
    return { query: { grant_type: "mobile", mobile: `SMS@${phone}`, code: sentCodes.at(-1) as string } };
  },
  "mobile.social": async (c) => {
    const who = await c.account();
    const code = `good-${nextNumber()}`;
    await c.post("/sys/user/social/bind", { state: "GITHUB", code }, who.token);
    return { query: { grant_type: "mobile", mobile: `GITHUB@${code}` } };
  },
  "mobile.bindSocial": async (c) => ({
    token: (await c.account()).token,
    body: { state: "GITHUB", code: `good-${nextNumber()}` },
  }),
  "mobile.unbindSocial": async (c) => {
    const who = await c.account();
    await c.post("/sys/user/social/bind", { state: "GITHUB", code: `good-${nextNumber()}` }, who.token);
    return { token: who.token, body: { state: "GITHUB" } };
  },
  "org.save": async (_, token) => {
    const key = next();
    return {
      token,
      body: {
        kind: "distributor",
        name: `Walk ${key}`,
        contact: "Walker",
        email: `w${key}@example.com`,
        account: { username: `walk-new-${key}`, password: PASSWORD },
      },
    };
  },
  "org.edit": async (c, token) => ({
    token,
    body: { id: (await c.org()).id, name: `Walked ${next()}`, contact: "Walker", email: "walked@example.com" },
  }),
  "org.del": async (c, token) => ({ token, body: { id: (await c.org()).id } }),
  "endUser.save": async (c, token) => ({
    token,
    body: { username: `walk-eu-${next()}`, password: PASSWORD, name: "Walk", orgId: (await c.org()).id },
  }),
  "endUser.edit": async (c, token) => ({ token, body: { id: (await c.endUser()).id, name: "Walked" } }),
  "endUser.lock": async (c, token) => ({ token, body: { id: (await c.endUser()).id, status: 1 } }),
  "endUser.del": async (c, token) => ({ token, body: { id: (await c.endUser()).id } }),
  "user.save": async (c, token) => ({
    token,
    body: { username: `walk-u-${next()}`, password: PASSWORD, name: "Walk", userType: 0, roleIds: [await c.roleId("AGENT")] },
  }),
  "user.edit": async (c, token) => ({
    token,
    body: { id: (await c.account({ signIn: false })).id, name: "Walked", roleIds: [await c.roleId("AGENT")] },
  }),
  "user.lock": async (c, token) => ({ token, body: { id: (await c.account({ signIn: false })).id, status: 1 } }),
  "user.passwordReset": async (c, token) => ({
    token,
    body: { id: (await c.account({ signIn: false })).id, password: "Walk2027xy" },
  }),
  "user.del": async (c, token) => ({ token, body: { id: (await c.account({ signIn: false })).id } }),
  "role.save": async (_, token) => ({
    token,
    body: { roleCode: `WALK_${next()}`.toUpperCase(), roleName: "Walk", userType: 0, permissions: ["sys.user.view"] },
  }),
  "role.edit": async (c, token) => ({
    token,
    body: {
      id: (await c.role()).id,
      roleCode: `WALKED_${next()}`.toUpperCase(),
      roleName: "Walked",
      userType: 0,
      permissions: [],
    },
  }),
  "role.del": async (c, token) => ({ token, body: { id: (await c.role()).id } }),
  "log.del": async (c, token) => {
    await c.role();
    const { rows } = await c.db.query<{ id: number }>("SELECT max(id) AS id FROM sys_log");
    return { token, body: { id: rows[0]?.id } };
  },
  "cancellation.apply": async (c) => ({ token: (await c.account({ userType: 2 })).token, body: { type: 2, reason: "Walk" } }),
  "cancellation.review": async (c, token) => ({ token, body: { id: (await c.cancellation()).id, status: 2, remarks: "No" } }),
  "cancellation.del": async (c, token) => ({ token, body: { id: (await c.cancellation()).id } }),
  "deviceSettings.write": async (c, token) => ({
    token,
    body: { deviceId: (await c.device()).id, values: { TP_0X03_55: 5 }, queueIfOffline: true },
  }),
  "deviceSettings.command": async (c, token) => ({
    token,
    body: { deviceId: (await c.device()).id, command: 4, queueIfOffline: true },
  }),
  "deviceSettings.bulk": async (c, token) => ({
    token,
    body: { filter: { deviceIds: [(await c.device()).id] }, command: 4, queueIfOffline: true },
  }),
  "registerVisibility.save": async (_, token) => ({
    token,
    body: { items: [{ registerId: "TP_0X03_55", audience: "consumer", view: true, set: nextNumber() % 2 === 0 }] },
  }),
  "selfCheck.start": async (c, token) => ({ token, body: { deviceId: (await c.device(true)).id } }),
  "tariff.save": async (_, token) => ({
    token,
    body: {
      userId: null,
      buy: [{ start: "00:00", end: "23:59", price: `0.${nextNumber()}` }],
      sell: [{ start: "00:00", end: "23:59", price: "0.1" }],
    },
  }),
  "tariff.clearProfit": async (c, token) => ({ token, body: { deviceId: (await c.device()).id } }),
  "generator.operate": async (c, token) => ({
    token,
    body: {
      deviceId: (await c.device()).id,
      on: false,
      ratedPowerKw: 20,
      availablePct: 80,
      controlMode: "manual",
      slots: [],
      outputMode: 0,
      chargePowerKw: 3,
    },
  }),
  "generator.del": async (c, token) => {
    const { id } = await c.device();
    const body = {
      on: false,
      ratedPowerKw: 20,
      availablePct: 80,
      controlMode: "manual",
      slots: [],
      outputMode: 0,
      chargePowerKw: 3,
    };
    await c.post("/admin/generator/operate", { deviceId: id, ...body });
    return { token, body: { deviceId: id } };
  },
  "mode.save": async (_, token) => ({
    token,
    body: {
      code: `S${next()}`,
      name: "Walk",
      description: "Walk",
      chargeSoc: 95,
      sellSoc: 30,
      dischargeOffSoc: 15,
      periodsText: "00:00-23:59",
    },
  }),
  "mode.edit": async (c, token) => ({
    token,
    body: {
      id: (await c.mode()).id,
      code: `E${next()}`,
      name: "Walked",
      description: "Walk",
      chargeSoc: 90,
      sellSoc: 30,
      dischargeOffSoc: 15,
      periodsText: "00:00-23:59",
    },
  }),
  "mode.del": async (c, token) => ({ token, body: { id: (await c.mode()).id } }),
  "fault.save": async (_, token) => ({
    token,
    body: { code: 61_000 + nextNumber(), level: 2, systemType: 1, texts: texts("Walk") },
  }),
  "fault.edit": async (c, token) => {
    const f = await c.fault();
    return {
      token,
      body: { id: f.id, code: (f as unknown as { code: number }).code, level: 3, systemType: 1, texts: texts("Walked") },
    };
  },
  "fault.del": async (c, token) => ({ token, body: { id: (await c.fault()).id } }),
  "fault.import": async (_, token) => ({
    token,
    body: { faults: [{ code: 62_000 + nextNumber(), level: 1, systemType: 2, texts: texts("Imported") }] },
  }),
  "alarmControl.save": async (_, token) => ({ token, body: { code: 50_000 + nextNumber(), name: "Walk", description: "Walk" } }),
  "alarmControl.edit": async (c, token) => {
    const a = await c.control();
    return { token, body: { id: a.id, code: (a as unknown as { code: number }).code, name: "Walked", description: "Walk" } };
  },
  "alarmControl.del": async (c, token) => ({ token, body: { id: (await c.control()).id } }),
  "alarm.remove": async (c, token) => {
    const { id } = await c.device();
    const body = hide(id);
    await c.db.query(
      `INSERT INTO device_alarm (device_id, code, level, system_type, occurred_at, cleared_at, last_ts)
       VALUES ($1, 2001, 2, 2, $2, $3, $2)`,
      [id, new Date(body.beginTime + 1000), new Date(body.endTime - 1000)],
    );
    return { token, body };
  },
  "alarm.savePreference": async (c) => ({ token: (await c.account()).token, body: { levels: [2, 3], onlineEvents: false } }),
  "powerGrid.save": async (c, token) => {
    const device = await c.device();
    await c.db.query("UPDATE device SET country_code = 3 WHERE id = $1", [device.id]);
    return { token, body: { sn: device.sn, powerGrid: "Ausgrid", nmi: "4102123456" } };
  },
  "device.save": async (_, token) => ({ token, body: { sn: uniqueSerial("WALKNEW"), name: "Walk", model: "H6K" } }),
  "device.edit": async (c, token) => ({ token, body: { id: (await c.device()).id, name: "Walked", model: "H6K" } }),
  "device.del": async (c, token) => ({ token, body: { id: (await c.device()).id } }),
  "device.resetSecret": async (c, token) => ({ token, body: { id: (await c.device()).id } }),
  "device.import": async (_, token) => ({ token, body: { content: `sn,name,model\r\n${uniqueSerial("WALKIMP")},Walk,H6K\r\n` } }),
  "device.bindInstaller": async (c, token) => {
    const installer = await c.org("installer", (await c.org()).id);
    return { token, body: { id: (await c.device()).id, installerOrgId: installer.id } };
  },
  "device.unbindInstaller": async (c, token) => {
    const installer = await c.org("installer", (await c.org()).id);
    const { id } = await c.device();
    await c.post("/admin/lsydevice/bindAgent", { id, installerOrgId: installer.id });
    return { token, body: { id } };
  },
  "device.bindUser": async (c, token) => ({ token, body: { id: (await c.device()).id, userId: (await c.endUser()).id } }),
  "device.unbindUser": async (c, token) => ({ token, body: { id: (await c.boundDevice()).id } }),
  "device.rename": async (c, token) => ({ token, body: { id: (await c.boundDevice()).id, as: "user", name: "Walked" } }),
  "firmware.save": async (_, token) => {
    const key = next();
    return {
      token,
      body: {
        type: 0,
        versionCode: `8.${nextNumber()}.${process.pid}`,
        versionName: `App ${key}`,
        downloadUrl: "https://example.com/app.apk",
      },
    };
  },
  "firmware.edit": async (c, token) => ({
    token,
    body: {
      id: await c.firmware(),
      type: 0,
      versionCode: `7.${nextNumber()}.${process.pid}`,
      versionName: "Walked",
      downloadUrl: "https://example.com/a.apk",
    },
  }),
  "firmware.del": async (c, token) => ({ token, body: { id: await c.firmware() } }),
  "firmware.upload": async (_, token) => ({
    token,
    query: { fileName: `mcu-${next()}.bin` },
    body: Buffer.from(`walk ${nextNumber()}`.repeat(30)),
    headers: { "content-type": "application/octet-stream" },
  }),
  "ota.send": async (c, token) => ({ token, body: { deviceId: (await c.device(true)).id, id: await c.firmware() } }),
  "ota.issue": async (c, token) => ({
    token,
    body: {
      name: `Walk ${next()}`,
      versionId: await c.firmware(),
      times: ["2030-01-01T00:00:00Z"],
      deviceIds: [(await c.device()).id],
    },
  }),
  "ota.pause": async (c, token) => ({ token, body: { id: (await c.campaign()).id } }),
  "ota.resume": async (c, token) => {
    const { id } = await c.campaign();
    await c.post("/admin/lsyupgrade/pause", { id });
    return { token, body: { id } };
  },
  "ota.cancel": async (c, token) => ({ token, body: { id: (await c.campaign()).id } }),
  "realtime.sendReminder": async (_, token) => ({
    token,
    body: { userId: 1, title: "Walk", content: "A reminder changes nothing" },
  }),
  // Messages: each sample writes its own message (to a new end user) and, where the route needs it, publishes it.
  ...CONTENT_CHANGE_SAMPLES,
};
