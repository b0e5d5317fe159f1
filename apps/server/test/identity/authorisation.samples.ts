import type { ScopedEntity } from "@ess/contracts";

export interface SampleIds {
  query?: Record<string, string | number>;
  params?: Record<string, string | number>;
  body?: unknown;
}

/**
 * A valid request for each scoped route that takes record ids, per referenced entity: the
 * authorisation test fills in records outside the caller's scope. A new scoped route that takes
 * record ids in its body or path, or an `id` in its query, needs an entry here.
 */
export interface Sample {
  /** A read by id: also tried on a record in scope, taken from this list route's answer. */
  byId?: { list: string };
  refs: Partial<Record<ScopedEntity, (id: number) => SampleIds>>;
}

/** Ids the test made before walking (a firmware version for the OTA samples). */
export const OTA_SAMPLE = { versionId: 0 };

/** Serial numbers of the world's devices by id, for routes that name a device by its SN (the test fills it). */
export const DEVICE_SNS = new Map<number, string>();
const snOf = (deviceId: number) => DEVICE_SNS.get(deviceId) ?? `unknown-${deviceId}`;

const INTRUSION = { title: "Intrusion", summary: "Intrusion", content: "Intrusion", terminal: "both" };

export const SAMPLES: Record<string, Sample> = {
  "org.info": { byId: { list: "org.page" }, refs: { organisation: (id) => ({ query: { id } }) } },
  "org.save": {
    refs: {
      organisation: (id) => ({
        body: {
          kind: "installer",
          parentId: id,
          name: "Intruder",
          authorisationCode: `X-${id}`,
          contact: "x",
          email: "x@example.com",
          account: { username: `intruder-${id}`, password: "Intrude2025" },
        },
      }),
    },
  },
  "org.edit": {
    refs: {
      organisation: (id) => ({ body: { id, name: "Taken", authorisationCode: `T-${id}`, contact: "x", email: "x@example.com" } }),
    },
  },
  "org.del": { refs: { organisation: (id) => ({ body: { id } }) } },
  "endUser.info": { byId: { list: "endUser.page" }, refs: { user: (id) => ({ query: { id } }) } },
  "endUser.save": {
    refs: {
      organisation: (id) => ({ body: { username: `intruder-o${id}`, password: "Intrude2025", name: "x", orgId: id } }),
      user: (id) => ({ body: { username: `intruder-u${id}`, password: "Intrude2025", name: "x", parentUserId: id } }),
    },
  },
  "endUser.edit": { refs: { user: (id) => ({ body: { id, name: "Taken" } }) } },
  "endUser.lock": { refs: { user: (id) => ({ body: { id, status: 1 } }) } },
  "endUser.del": { refs: { user: (id) => ({ body: { id } }) } },
  "user.details": { byId: { list: "user.page" }, refs: { user: (id) => ({ params: { id } }) } },
  "user.save": {
    refs: {
      organisation: (id) => ({
        body: { username: `intruder-s${id}`, password: "Intrude2025", name: "x", userType: 1, orgId: id, roleIds: [6] },
      }),
    },
  },
  "user.edit": { refs: { user: (id) => ({ body: { id, name: "Taken", roleIds: [6] } }) } },
  "user.lock": { refs: { user: (id) => ({ body: { id, status: 1 } }) } },
  "user.passwordReset": { refs: { user: (id) => ({ body: { id, password: "Taken2025x" } }) } },
  "user.del": { refs: { user: (id) => ({ body: { id } }) } },
  "log.del": { refs: { log: (id) => ({ body: { id } }) } },
  "cancellation.review": { refs: { cancellation: (id) => ({ body: { id, status: 1 } }) } },
  "cancellation.del": { refs: { cancellation: (id) => ({ body: { id } }) } },
  // Device data: each route reads one device, named by deviceId (a device list route will add byId).
  "deviceTelemetry.pageRead": { refs: { device: (deviceId) => ({ query: { deviceId, val: 41 } }) } },
  "deviceTelemetry.latest": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "deviceTelemetry.dayCurve": { refs: { device: (deviceId) => ({ query: { deviceId, date: "2026-03-29" } }) } },
  "deviceTelemetry.energy": {
    refs: { device: (deviceId) => ({ query: { deviceId, type: "0", startDate: "2026-03-01", endDate: "2026-03-31" } }) },
  },
  "deviceTelemetry.onlineLog": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  // Settings and commands: one device by deviceId, or a bulk filter naming devices.
  "deviceSettings.write": {
    refs: { device: (deviceId) => ({ body: { deviceId, values: { TP_0X03_55: 5 }, queueIfOffline: true } }) },
  },
  "deviceSettings.command": { refs: { device: (deviceId) => ({ body: { deviceId, command: 4, queueIfOffline: true } }) } },
  "deviceSettings.records": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "deviceSettings.bulk": {
    refs: { device: (deviceId) => ({ body: { filter: { deviceIds: [deviceId] }, command: 4, queueIfOffline: true } }) },
  },
  // The operation is its launcher's; each device's record is also filtered by the device scope.
  "deviceSettings.bulkOutcome": { refs: { bulk: (bulkId) => ({ query: { bulkId } }) } },
  // The IEEE device centre: one device's documents and commands, by id or SN, and its NMI.
  "ieee.receivePage": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ieee.sendPage": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ieee.commandPage": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ieee.responsePage": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ieee.commandExport": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ieee.receiveExport": { refs: { device: (deviceId) => ({ params: { sn: snOf(deviceId) } }) } },
  "ieee.sendExport": { refs: { device: (deviceId) => ({ params: { sn: snOf(deviceId) } }) } },
  "powerGrid.get": { refs: { device: (deviceId) => ({ query: { sn: snOf(deviceId) } }) } },
  "powerGrid.save": { refs: { device: (deviceId) => ({ body: { sn: snOf(deviceId), powerGrid: "", nmi: "" } }) } },
  "referral.modify": { refs: { referral: (referralCashbackId) => ({ body: { referralCashbackId, cashOutState: 1 } }) } },
  "generator.info": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "generator.operate": {
    refs: {
      device: (deviceId) => ({
        body: {
          deviceId,
          on: false,
          ratedPowerKw: 20,
          availablePct: 80,
          controlMode: "manual",
          slots: [],
          outputMode: 0,
          chargePowerKw: 3,
        },
      }),
    },
  },
  "generator.del": { refs: { device: (deviceId) => ({ body: { deviceId } }) } },
  "mode.switchRecords": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "selfCheck.start": { refs: { device: (deviceId) => ({ body: { deviceId } }) } },
  "selfCheck.page": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "selfCheck.report": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "tariff.get": { refs: { user: (userId) => ({ query: { userId } }) } },
  "tariff.save": {
    refs: {
      user: (userId) => ({
        body: {
          userId,
          currency: "EUR",
          buy: [{ start: "00:00", end: "23:59", price: "0.3" }],
          sell: [{ start: "00:00", end: "23:59", price: "0.1" }],
        },
      }),
    },
  },
  "tariff.ofDevice": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "tariff.clearProfit": { refs: { device: (deviceId) => ({ body: { deviceId } }) } },
  "tariff.revenue": { refs: { device: (deviceId) => ({ query: { deviceId, startDate: "2026-03-01", endDate: "2026-03-02" } }) } },
  // Device alarms: a device named by deviceId (lists narrowed to it, the status labels, hide/delete).
  "alarm.page": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "alarm.export": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "alarm.statusLabels": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "alarm.remove": {
    refs: { device: (deviceId) => ({ body: { deviceId, faultCode: 2001, beginTime: 0, endTime: 1000, action: "hide" } }) },
  },
  // Device management: reads by id, changes, binding targets and the selling organisation.
  "device.info": { byId: { list: "device.page" }, refs: { device: (id) => ({ query: { id } }) } },
  "device.save": {
    refs: { organisation: (orgId) => ({ body: { sn: `INTRUDER${orgId}`, name: "Intruder", model: "H6K", orgId } }) },
  },
  "device.edit": { refs: { device: (id) => ({ body: { id, name: "Taken", model: "H6K" } }) } },
  "device.del": { refs: { device: (id) => ({ body: { id } }) } },
  "device.resetSecret": { refs: { device: (id) => ({ body: { id } }) } },
  "device.import": {
    refs: { organisation: (orgId) => ({ body: { content: `sn,name,model\r\nINTRUDE${orgId},Intruder,H6K\r\n`, orgId } }) },
  },
  "device.bindInstaller": {
    refs: {
      device: (id) => ({ body: { id, installerOrgId: 1 } }),
      organisation: (installerOrgId) => ({ body: { id: 1, installerOrgId } }),
    },
  },
  "device.unbindInstaller": { refs: { device: (id) => ({ body: { id } }) } },
  "device.bindUser": {
    refs: { device: (id) => ({ body: { id, userId: 1 } }), user: (userId) => ({ body: { id: 1, userId } }) },
  },
  "device.unbindUser": { refs: { device: (id) => ({ body: { id } }) } },
  "device.rename": { refs: { device: (id) => ({ body: { id, as: "user", name: "Taken" } }) } },
  "statistics.revenue": {
    refs: { device: (deviceId) => ({ query: { deviceId, type: "1", startDate: "2026-03-01", endDate: "2026-03-31" } }) },
  },
  "statistics.export": {
    refs: { device: (deviceId) => ({ query: { deviceId, type: "1", startDate: "2026-03-01", endDate: "2026-03-31" } }) },
  },
  "board.total": { refs: { organisation: (orgId) => ({ query: { orgId } }) } },
  // OTA: a firmware version the test makes (OTA_SAMPLE.versionId), to devices and campaigns out of scope.
  "ota.send": { refs: { device: (deviceId) => ({ body: { deviceId, id: OTA_SAMPLE.versionId } }) } },
  "ota.records": { refs: { device: (deviceId) => ({ query: { deviceId } }) } },
  "ota.issue": {
    refs: {
      device: (deviceId) => ({
        body: { name: "Intrusion", versionId: OTA_SAMPLE.versionId, times: ["2030-01-01T00:00:00Z"], deviceIds: [deviceId] },
      }),
      organisation: (orgId) => ({
        body: { name: "Intrusion", versionId: OTA_SAMPLE.versionId, times: ["2030-01-01T00:00:00Z"], filter: { orgId } },
      }),
    },
  },
  "ota.info": { byId: { list: "ota.page" }, refs: { campaign: (id) => ({ query: { id } }) } },
  "ota.devices": { refs: { campaign: (id) => ({ query: { id } }) } },
  "ota.pause": { refs: { campaign: (id) => ({ body: { id } }) } },
  "ota.resume": { refs: { campaign: (id) => ({ body: { id } }) } },
  "ota.cancel": { refs: { campaign: (id) => ({ body: { id } }) } },
  "realtime.sendReminder": { refs: { user: (userId) => ({ body: { userId, title: "Reminder", content: "Out of scope" } }) } },
  // Messages: a message out of scope, or an audience (organisation, accounts) out of the sender's scope.
  "message.info": { byId: { list: "message.page" }, refs: { message: (id) => ({ query: { id } }) } },
  "message.save": {
    refs: {
      organisation: (orgId) => ({ body: { ...INTRUSION, audience: "organisation", orgId } }),
      user: (userId) => ({ body: { ...INTRUSION, audience: "users", userIds: [userId] } }),
    },
  },
  "message.edit": {
    refs: {
      message: (id) => ({ body: { ...INTRUSION, id, audience: "everyone" } }),
      organisation: (orgId) => ({ body: { ...INTRUSION, id: 1, audience: "organisation", orgId } }),
      user: (userId) => ({ body: { ...INTRUSION, id: 1, audience: "users", userIds: [userId] } }),
    },
  },
  "message.publish": { refs: { message: (id) => ({ body: { id } }) } },
  "message.recall": { refs: { message: (id) => ({ body: { id } }) } },
  "message.del": { refs: { message: (id) => ({ body: { id } }) } },
  // Feedback: an item of a user out of scope, or an assignee out of scope.
  "feedback.open": { refs: { feedback: (id) => ({ body: { id } }) } },
  "feedback.handle": {
    refs: {
      feedback: (id) => ({ body: { id, state: 3, reply: "Intrusion" } }),
      user: (assigneeId) => ({ body: { id: 1, state: 3, assigneeId } }),
    },
  },
};
