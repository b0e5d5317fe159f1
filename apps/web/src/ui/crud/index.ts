/**
 * The generic list/form layer (DESIGN §2): a list screen is a configuration, not a copied page.
 *
 *   import { CrudPage, defineCrud } from "../../../ui/crud/index.ts";
 *   import { API } from "../../../api/api.ts";
 *   import { userCreate } from "@ess/contracts";
 *
 *   const users = defineCrud<UserRecord>({
 *     id: "users",                        // test ids: users-page, users-table, users-create, users-<action>
 *     ns: ["users"],                      // extra i18n namespaces (crud, fields, validation, enums always load)
 *     list: API.user.page,                // a paged route of the list convention (contracts/src/list.ts);
 *                                         // `tree: true` for a route answering a whole tree
 *     filters: [{ name: "username" }, { name: "status", kind: "select",
 *                options: { values: [0, 1], labelKey: "enums:userStatus" } }],
 *     columns: [{ key: "username", sortable: true }, { key: "createTime", kind: "time", sortable: true }],
 *     create: { title: "users:create", route: API.user.save, schema: userCreate,
 *               permission: "sys.user.edit", fields: [{ name: "username", required: true }, …] },
 *     edit:   { …same shape; initial values come from the row, the row's id is added to the body },
 *     remove: { route: API.user.del, permission: "sys.user.edit" },   // confirmation, then { id }
 *     actions: [{ key: "lock", label: "crud:lock", confirm: "crud:confirmLock", danger: true,
 *                 run: (r) => call(API.user.lock, { body: { id: r.id, status: 1 } }) },
 *               { key: "password", label: "users:resetPassword", form: { …a FormSpec } }],
 *     export: { route: API.user.export, permission: "sys.user.view", fileName: "users.csv" },
 *   });
 *   export default function UsersPage() { return <CrudPage config={users} />; }
 *
 * What it does for every screen: search filters (Search from page 1, Reset); paging and sorting
 * done by the server (`current`, `size`, `sort`, `order`); labels `fields:<name>` unless given;
 * buttons only for holders of their permission; delete, export and any action with `confirm`
 * ask first; dialogs check the body with the route's zod schema (the server's own rules and
 * wording) on every change — a refusal shows at its field while typing and goes once fixed —
 * and put the server's field-named refusals on their fields. Field kinds:
 * text, password, textarea, number, switch, select, multiSelect, timeZone, tree, dateRange.
 * Each input is inside `data-testid="field-<name>"` (its refusal included) and has the test id
 * `<dialog test id>-<name>`; dialogs are `<id>-create-dialog`, `<id>-edit-dialog`, `<id>-<action>-dialog`;
 * row buttons are `<id>-<action key>` (`edit`, `delete` and yours: so avoid the toolbar's `search`,
 * `reset`, `create`, `export`, `refresh` as action keys); search inputs are `<id>-filter-<name>`.
 */
export { useCan } from "./can.ts";
export { CrudPage } from "./crud-page.tsx";
export { downloadExport } from "./download.ts";
export { placeErrors } from "./field-errors.ts";
export { filterQuery } from "./filter-query.ts";
export { FormDialog } from "./form-dialog.tsx";
export { TIME_ZONES, useOptions } from "./options.ts";
export { SearchBar } from "./search-bar.tsx";
export type {
  ColumnDef,
  CrudConfig,
  FieldDef,
  FieldKind,
  FormSpec,
  Option,
  OptionSource,
  RowAction,
  TreeOption,
  Values,
} from "./types.ts";
export { defineCrud } from "./types.ts";
export { useCrudList } from "./use-crud-list.ts";
