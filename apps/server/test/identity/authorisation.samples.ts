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
  "realtime.sendReminder": { refs: { user: (userId) => ({ body: { userId, title: "Reminder", content: "Out of scope" } }) } },
};
