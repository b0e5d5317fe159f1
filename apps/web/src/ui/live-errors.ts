import { useRef, useState } from "react";

/** A refusal of one field by its dotted path (`slots.1.end`), already worded. */
export interface PathError {
  field: string;
  message: string;
}

/** Values that are leaves of a form (a picked time, a date) even though they are objects. */
const isPlain = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;

/** The dotted paths of the leaves antd reports as changed (`{ slots: [, { end }] }` → `slots.1.end`). */
export function changedPaths(changed: unknown, prefix = ""): string[] {
  if (Array.isArray(changed)) {
    // antd reports a list entry's change as a sparse array: only the changed entry is walked.
    const paths = changed.flatMap((v, i) => (v === undefined ? [] : changedPaths(v, prefix ? `${prefix}.${i}` : String(i))));
    return paths.length > 0 || !prefix ? paths : [prefix];
  }
  if (isPlain(changed)) {
    return Object.entries(changed).flatMap(([k, v]) => changedPaths(v, prefix ? `${prefix}.${k}` : k));
  }
  return prefix ? [prefix] : [];
}

/** Whether a refusal at `field` concerns something the user changed (the field, a part of it, or its list). */
export function concernsTouched(field: string, touched: ReadonlySet<string>): boolean {
  for (const path of touched) {
    if (path === field || path.startsWith(`${field}.`) || field.startsWith(`${path}.`)) return true;
  }
  return false;
}

/**
 * Which refusals a form shows while the user types: those of the fields they changed (a rule
 * between two fields shows once either changed), and all of them once Save was pressed. The
 * caller checks the whole form on every change with the shared rules and passes what they say;
 * a field's message goes away as soon as the rule no longer refuses it.
 */
export function useLiveErrors() {
  const touched = useRef(new Set<string>());
  const [, setVersion] = useState(0);
  const submitted = useRef(false);
  return {
    /** Give to the antd Form's `onValuesChange`. */
    onValuesChange: (changed: unknown) => {
      for (const path of changedPaths(changed)) touched.current.add(path);
      setVersion((v) => v + 1);
    },
    /** Marks a path as changed by the user (inputs outside antd's form store). */
    touch: (path: string) => {
      touched.current.add(path);
      setVersion((v) => v + 1);
    },
    /** After Save was pressed every refusal shows. */
    submit: () => {
      submitted.current = true;
      setVersion((v) => v + 1);
    },
    /** A new reading of the data: nothing is changed, nothing shown. */
    reset: () => {
      touched.current = new Set();
      submitted.current = false;
      setVersion((v) => v + 1);
    },
    /** The refusals to show, by field path (the first message of each field). */
    visible: (problems: readonly PathError[]): Record<string, string> => {
      const shown: Record<string, string> = {};
      for (const p of problems) {
        if (shown[p.field] !== undefined) continue;
        if (submitted.current || concernsTouched(p.field, touched.current)) shown[p.field] = p.message;
      }
      return shown;
    },
    get dirty() {
      return touched.current.size > 0;
    },
  };
}

/**
 * Puts refusals by field path on an antd form's inputs and takes them off the inputs that are no
 * longer refused. `shown` remembers which fields carry a message between calls.
 */
export function setFormErrors(
  form: { setFields: (fields: { name: (string | number)[]; errors: string[] }[]) => void },
  shown: { current: string[] },
  byField: Record<string, string>,
) {
  const name = (path: string) => path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const next = Object.keys(byField);
  form.setFields([
    ...shown.current.filter((path) => !(path in byField)).map((path) => ({ name: name(path), errors: [] })),
    ...next.map((path) => ({ name: name(path), errors: [byField[path] as string] })),
  ]);
  shown.current = next;
}
