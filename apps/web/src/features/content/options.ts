import i18next from "i18next";
import { API } from "../../api/api.ts";
import { call } from "../../api/client.ts";
import type { OptionSource } from "../../ui/crud/index.ts";

/** Organisations the caller may address (its own subtree; the server refuses any other). */
export const audienceOrgOptions: OptionSource = {
  key: "message-organisations",
  load: async () =>
    (await call(API.org.list, { query: {} })).map((o) => ({
      value: o.id,
      label: `${o.name} · ${i18next.t(`channel:kinds.${o.kind}`)}`,
    })),
};

const accounts = async () =>
  (await call(API.user.page, { query: { size: 500, sort: "username", order: "asc" } } as never)).records;

/** Accounts the caller sees, for a message to chosen users. */
export const audienceUserOptions: OptionSource = {
  key: "message-users",
  load: async () => (await accounts()).map((u) => ({ value: u.id, label: `${u.username} · ${u.name}` })),
};

/** Console accounts (back office and channel staff) the caller sees, to hand feedback to. */
export const staffOptions: OptionSource = {
  key: "feedback-staff",
  load: async () =>
    (await accounts()).filter((u) => u.userType !== 2).map((u) => ({ value: u.id, label: `${u.username} · ${u.name}` })),
};
