import type { RouteContract } from "@ess/contracts";
import type { PermissionId } from "@ess/domain";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import type { z } from "zod";

/** One choice of a select, its label already translated. */
export interface Option {
  value: string | number | boolean;
  label: string;
}

/** A tree of choices (permission tree); labels already translated. */
export interface TreeOption {
  key: string;
  label: string;
  children: TreeOption[];
}

/**
 * Where a select's choices come from: values kept in `packages/domain` labelled by an i18n key
 * prefix (`{ values: [0, 1], labelKey: "enums:userStatus" }` → `enums:userStatus.0`; a prefix
 * ending in ":" is followed by the value directly, `permissions:` → `permissions:sys.user.view`), or loaded
 * from the server (`key` names the cached query).
 */
export type OptionSource =
  | { values: readonly (string | number | boolean)[]; labelKey: string }
  | { key: string; load: () => Promise<Option[]> };

export type FieldKind =
  | "text"
  | "password"
  | "textarea"
  | "number"
  | "switch"
  | "select"
  | "multiSelect"
  | "timeZone"
  | "tree"
  | "dateRange";

/** Form values: field names are dotted paths (`account.username`). */
export type Values = Record<string, unknown>;

/** One input of a form or of the search bar. */
export interface FieldDef {
  /** Dotted path of the value (and of the server's refusal for it). */
  name: string;
  /** i18n key of the label; default `fields:<last part of name>`. */
  label?: string;
  kind?: FieldKind;
  options?: OptionSource;
  /** For `tree`: the checkable tree; the value is the list of checked leaves. */
  tree?: { key: string; load: () => Promise<TreeOption[]> };
  /** For `dateRange` in the search bar: the two query names it fills (ISO instants). */
  range?: [string, string];
  /** Shows the required mark; the rules themselves come from the route's schema. */
  required?: boolean;
  /** i18n key of a hint under the input. */
  help?: string;
  /** Shown only while this holds for the form's current values. */
  visible?: (values: Values) => boolean;
  disabled?: boolean;
  /** An input of the screen's own (a file upload, a list of times), controlled like the others. */
  input?: (props: { id?: string; value?: unknown; onChange?: (value: unknown) => void; testId: string }) => ReactNode;
}

/** A dialog that sends a route's body, checked first with the route's own zod schema. */
export interface FormSpec<R> {
  /** i18n key of the dialog title. */
  title: string;
  fields: FieldDef[];
  /** The body schema the server validates with (from `packages/contracts`). */
  schema: z.ZodType;
  route: RouteContract;
  /** Starting values (for an edit: taken from the row; default: the row's fields of the same names). */
  initial?: (record: R | undefined) => Values;
  /** Values → request body (default: the values, plus the row's `id` when there is a row). */
  toBody?: (values: Values, record: R | undefined) => unknown;
  /** i18n key of the message after success; default `crud:saved`. */
  success?: string;
  permission?: PermissionId;
  /** i18n key of a notice at the top of the dialog (interpolated with the row's fields). */
  intro?: string;
  /** For a row's form (edit): whether this row offers it. */
  visible?: (record: R) => boolean;
  /** i18n key of a question asked once the values pass the checks, before sending (interpolated with the row's fields). */
  confirm?: string;
  /** Receives the server's answer after success (something it answers only once, such as a secret). */
  onAnswer?: (answer: unknown, record: R | undefined) => void;
}

/** A button on each row: asks for confirmation and runs, or opens a form dialog. */
export interface RowAction<R> {
  key: string;
  /** i18n key (or one chosen by the row, e.g. lock / unlock). */
  label: string | ((record: R) => string);
  permission?: PermissionId;
  visible?: (record: R) => boolean;
  /**
   * Why the row cannot do this now (an i18n key), or undefined when it can: the action is shown
   * but not offered, with the reason beside it, so the user learns it before opening a form.
   */
  unavailable?: (record: R) => string | undefined;
  danger?: boolean;
  /** i18n key of the question; interpolated with the row's fields. */
  confirm?: string | ((record: R) => string);
  run?: (record: R) => Promise<unknown>;
  form?: FormSpec<R>;
  /** A dialog of the screen's own for the row (prices, the row's devices); `close` ends it. */
  panel?: (record: R, close: () => void) => ReactNode;
  /** i18n key of the message after success; default `crud:done`. */
  success?: string;
  /** Receives what `run` answered, after success. */
  onAnswer?: (answer: unknown, record: R) => void;
}

export interface ColumnDef<R> {
  /** The record field shown (and the server's sort name when `sortable`). */
  key: string;
  /** i18n key; default `fields:<key>`. */
  title?: string;
  sortable?: boolean;
  /** Shows the label of the value from these choices. */
  options?: OptionSource;
  kind?: "time" | "boolean";
  render?: (record: R, t: TFunction) => ReactNode;
  width?: number;
  ellipsis?: boolean;
}

/** Everything a list screen is: the route it lists, its filters, columns, dialogs and row actions. */
export interface CrudConfig<R extends { id: number }> {
  /** Names the screen's test ids (`<id>-table`, `<id>-create`…) and its cached queries. */
  id: string;
  /** i18n namespaces the screen's labels use (besides crud, fields, validation, enums). */
  ns?: string[];
  /** A paged list route (`{records, total…}`); with `tree: true` a route answering the whole tree. */
  list: RouteContract;
  tree?: boolean;
  /** Query values always sent (a screen showing one user type). */
  baseQuery?: Values;
  filters?: FieldDef[];
  /** Filter values the screen opens with (a link's drill-down), shown in the search bar's inputs. */
  initialFilters?: Values;
  columns: ColumnDef<R>[];
  create?: FormSpec<R>;
  edit?: FormSpec<R>;
  remove?: { route: RouteContract; permission?: PermissionId; confirm?: string; visible?: (record: R) => boolean };
  actions?: RowAction<R>[];
  /** An export route (CSV) sent with the current filters. */
  export?: { route: RouteContract; permission?: PermissionId; fileName: string };
  /** Details shown when a row is expanded. */
  expand?: (record: R, t: TFunction) => ReactNode;
  /** Width of the actions column. */
  actionsWidth?: number;
  /**
   * The table's least width (px): columns keep their given widths (text wraps, `ellipsis` cuts),
   * those without one share what is left, and the table scrolls inside itself only when its
   * container is narrower. Without it every column is as wide as its content.
   */
  scrollX?: number;
  /**
   * The row actions shown as buttons (keys, including "edit" and "delete"); the others go in the
   * row's "more" menu. Without it every action is a button.
   */
  rowButtons?: readonly string[];
  /** Buttons of the screen's own in the toolbar, after create and export. */
  toolbar?: () => ReactNode;
  /** Reloads the list this often (ms) while it is shown: progress that moves on the server. */
  refetchMs?: number;
}

/** Declares a screen's configuration with its record type checked. */
export const defineCrud = <R extends { id: number }>(config: CrudConfig<R>): CrudConfig<R> => config;
