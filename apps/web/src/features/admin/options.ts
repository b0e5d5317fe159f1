import i18next from "i18next";
import { API } from "../../api/api.ts";
import { call } from "../../api/client.ts";
import type { OptionSource } from "../../ui/crud/index.ts";

/** A role's label: the translation of a built-in role's code, else its stored name. */
export const roleLabel = (role: { roleCode: string; roleName: string }) =>
  i18next.t(`roles:${role.roleCode}`, { defaultValue: role.roleName });

/** The roles the caller may hand out (the server lists no more than the caller holds). */
export const roleOptions: OptionSource = {
  key: "roles",
  load: async () => (await call(API.role.list, { query: {} })).map((r) => ({ value: r.id, label: roleLabel(r) })),
};
