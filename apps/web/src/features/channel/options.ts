import i18next from "i18next";
import { API } from "../../api/api.ts";
import { call } from "../../api/client.ts";
import type { OptionSource } from "../../ui/crud/index.ts";

const orgChoices = async (keep: (kind: string) => boolean) =>
  (await call(API.org.list, { query: {} }))
    .filter((o) => keep(o.kind))
    .map((o) => ({ value: o.id, label: `${o.name} · ${i18next.t(`channel:kinds.${o.kind}`)}` }));

/** The organisations the caller may see, labelled with their kind. */
export const orgOptions: OptionSource = { key: "organisations", load: () => orgChoices(() => true) };

/** Organisations that can have others below them (an installer company cannot). */
export const parentOrgOptions: OptionSource = {
  key: "parent-organisations",
  load: () => orgChoices((kind) => kind !== "installer"),
};

/** Master users (end users without a master) the caller may see, for making a sub-user. */
export const masterUserOptions: OptionSource = {
  key: "master-users",
  load: async () =>
    (await call(API.endUser.page, { query: { size: 500, sort: "username", order: "asc" } })).records
      .filter((u) => u.parentUserId === null)
      .map((u) => ({ value: u.id, label: `${u.username} · ${u.name}` })),
};
