export type Paged = { records: Record<string, unknown>[]; total: number };

/** One form given bad input: where it opens, what is typed, the refusal shown per field. */
export interface Case {
  screen: string;
  path: string;
  /** `create`, or a row's text and the action opening the dialog. */
  open: "create" | { row: string; action: string };
  fill: Record<string, string>;
  errors: Record<string, string>;
  /** Reads through the API what must stay as it was. */
  state: () => Promise<unknown>;
}

/** What the cases read through the API to check that nothing changed. */
export interface CaseApi {
  list: (path: string) => Promise<Paged>;
  one: (path: string) => Promise<Record<string, unknown>>;
  get: (path: string) => Promise<unknown>;
  /** Rows of a query on the console's database (what no route shows, e.g. a password hash). */
  rows: (query: string) => Promise<unknown[]>;
}

/** Bad input for every form of the administration screens, with the refusals a user must see. */
export const adminFormCases = ({ list, one, get, rows }: CaseApi): Case[] => [
  {
    screen: "users",
    path: "/admin/user/index",
    open: "create",
    fill: { username: "a", password: "abcdefgh", email: "not-mail" },
    errors: {
      username: "Account needs at least 2 characters",
      password: "The password must have 6 to 20 characters with both letters and digits",
      name: "Name is required",
      email: "E-mail is not in a valid format",
      roleIds: "Roles is required",
    },
    state: () => list("/sys/user/page?size=100").then((p) => p.total),
  },
  {
    screen: "users",
    path: "/admin/user/index",
    open: { row: "bob", action: "edit" },
    fill: { name: "", phone: "12" },
    errors: { name: "Name is required", phone: "Telephone is not a valid telephone number" },
    state: () => one("/sys/user/page?username=bob"),
  },
  {
    screen: "users",
    path: "/admin/user/index",
    open: { row: "bob", action: "password" },
    fill: { password: "123456" },
    errors: { password: "The password must have 6 to 20 characters with both letters and digits" },
    // The stored password (its hash) and whether a change is demanded stay as they were.
    state: async () => await rows("SELECT password_hash, must_change_password FROM sys_user WHERE username = 'bob'"),
  },
  {
    screen: "roles",
    path: "/admin/role/index",
    open: { row: "ENGINEER", action: "edit" },
    fill: { roleCode: "engineer", roleName: "" },
    errors: { roleCode: "Role identifier is not in a valid format", roleName: "Role name is required" },
    state: () => one("/sys/role/page?roleCode=ENGINEER"),
  },
  {
    screen: "menus",
    path: "/admin/menu/index",
    open: "create",
    fill: { label: "", path: "no slash" },
    errors: { label: "Name in Chinese is required", path: "Route path is not in a valid format" },
    state: () => get("/sys/menu/tree"),
  },
  {
    screen: "menus",
    path: "/admin/menu/index",
    open: { row: "Personal information", action: "edit" },
    fill: { path: "info page", nameEn: "x".repeat(65) },
    errors: { path: "Route path is not in a valid format", nameEn: "Name in English may have at most 64 characters" },
    state: () => get("/sys/menu/tree"),
  },
  {
    screen: "orgs",
    path: "/channel/installer/index",
    open: "create",
    fill: { name: "Acme", contact: "Jo", email: "nope", "account.username": "x", "account.password": "abc" },
    errors: {
      authorisationCode: "Authorisation code is required",
      email: "E-mail is not in a valid format",
      "account.username": "Enterprise account needs at least 2 characters",
      "account.password": "The password must have 6 to 20 characters with both letters and digits",
    },
    state: () => list("/admin/lsyinstaller/page?size=100").then((p) => p.total),
  },
  {
    screen: "orgs",
    path: "/channel/installer/index",
    open: { row: "Sole Impianti", action: "edit" },
    fill: { email: "luca@", contact: "" },
    errors: { email: "E-mail is not in a valid format", contact: "Contact person is required" },
    state: () => one("/admin/lsyinstaller/page?name=Sole"),
  },
  {
    screen: "end-users",
    path: "/channel/enduser/index",
    open: "create",
    fill: { username: "a", password: "Anna2025x", name: "Ann", email: "bad" },
    errors: { username: "Account needs at least 2 characters", email: "E-mail is not in a valid format" },
    state: () => list("/admin/lsyuser/page?size=100").then((p) => p.total),
  },
  {
    screen: "end-users",
    path: "/channel/enduser/index",
    open: { row: "anna", action: "edit" },
    fill: { phone: "call me", address: "y".repeat(256) },
    errors: { phone: "Telephone is not a valid telephone number", address: "Address may have at most 255 characters" },
    state: () => one("/admin/lsyuser/page?username=anna"),
  },
  {
    screen: "cancellations",
    path: "/channel/cancel/index",
    open: { row: "anna", action: "refuse" },
    fill: { remarks: "z".repeat(501) },
    errors: { remarks: "Remarks may have at most 500 characters" },
    state: () => one("/admin/user/logout/page?username=anna"),
  },
];
