import { z } from "zod";

/** One value a request schema takes: where it sits and what it is. */
export interface InputLeaf {
  /** Keys from the root; `*` stands for any array index or record key. */
  path: string[];
  kind: "text" | "number" | "boolean" | "choice" | "date" | "unchecked" | "other";
  schema: z.ZodType;
  /** The i18n key a `.meta({ label })` on the way names the field by (the outermost wins). */
  label?: string;
  /** A record's key (the path ends at the record). */
  recordKey?: boolean;
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The label a schema was given with `.meta({ label: "fields:…" })`. */
export function metaLabel(schema: z.ZodType): string | undefined {
  const label = z.globalRegistry.get(schema)?.label;
  return typeof label === "string" ? label : undefined;
}

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional", "success"]);

/**
 * Every leaf of a request schema, as a client would fill it: through optional, default and
 * preprocess wrappers, into objects, arrays, records (keys and values), unions and intersections.
 */
export function inputLeaves(schema: z.ZodType): InputLeaf[] {
  const leaves: InputLeaf[] = [];
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType, path: string[], label: string | undefined) => {
    const own = label ?? metaLabel(s);
    const def = defOf(s);
    const leaf = (kind: InputLeaf["kind"]) => leaves.push({ path, kind, schema: s, ...(own ? { label: own } : {}) });
    if (WRAPPERS.has(def.type)) return walk(def.innerType as z.ZodType, path, own);
    switch (def.type) {
      case "pipe": {
        const input = def.in as z.ZodType;
        // A preprocess or a transform: the schema on the other side of the function is the field.
        if (defOf(input).type !== "transform") walk(input, path, own);
        const output = def.out as z.ZodType;
        if (defOf(output).type !== "transform") walk(output, path, own);
        return;
      }
      case "lazy":
        if (seen.has(s)) return;
        seen.add(s);
        return walk((def.getter as () => z.ZodType)(), path, own);
      case "object":
        for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(value, [...path, key], undefined);
        return;
      case "array":
        return walk(def.element as z.ZodType, [...path, "*"], undefined);
      case "set":
        return walk(def.valueType as z.ZodType, [...path, "*"], undefined);
      case "tuple":
        (def.items as z.ZodType[]).forEach((item, i) => void walk(item, [...path, String(i)], undefined));
        return;
      case "record": {
        const before = leaves.length;
        walk(def.keyType as z.ZodType, path, own);
        for (const l of leaves.slice(before)) l.recordKey = true;
        return walk(def.valueType as z.ZodType, [...path, "*"], undefined);
      }
      case "union":
        for (const option of def.options as z.ZodType[]) walk(option, path, own);
        return;
      case "intersection":
        walk(def.left as z.ZodType, path, own);
        return walk(def.right as z.ZodType, path, own);
      case "string":
        return leaf("text");
      case "number":
      case "bigint":
        return leaf("number");
      case "boolean":
        return leaf("boolean");
      case "enum":
      case "literal":
        return leaf("choice");
      case "date":
        return leaf("date");
      case "unknown":
      case "any":
        return leaf("unchecked");
      default:
        return leaf("other");
    }
  };
  walk(schema, [], undefined);
  return leaves;
}
