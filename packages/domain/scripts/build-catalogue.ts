/**
 * Builds the device register catalogue, the enumerations and their labels from the reference tables
 * (catalogue-source/reference/*.tsv, copied from the research notes) and our reviewed tables
 * (catalogue-source/*.tsv). Writes packages/domain/src/catalogue/*.generated.ts and
 * packages/i18n/locales/<lang>/{registers,enums}.json. Deterministic: same input, same bytes.
 *
 *   node packages/domain/scripts/build-catalogue.ts
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLabeller, LANGS, type Lang, tsv } from "./catalogue-labels.ts";
import { type Classified, classify, type RowFacts } from "./catalogue-rules.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const src = join(here, "catalogue-source");
const outDir = join(here, "../src/catalogue");
const localesDir = join(here, "../../i18n/locales");

const { labelsOf, untranslated } = createLabeller(src);

// ---------- reference data ----------
const fills = new Map(tsv(join(src, "label-fills.tsv")).map((r) => [r.id ?? "", r]));
const overrides = new Map(tsv(join(src, "overrides.tsv")).map((r) => [r.id ?? "", r]));
const registers = tsv(join(src, "reference/registers.tsv"));
const keys = tsv(join(src, "reference/single-phase-keys.tsv"));
const enumRows = tsv(join(src, "reference/enums.tsv"));

// Enumerations: enums.tsv filters (first label per value wins, sources in a fixed order), then
// the option lists of settable selects, then the spec §4 enumerations of spec-enums.tsv.
type EnumDef = { name: string; source: string; values: Map<number, { en: string; zh: string; it: string }> };
const enums = new Map<string, EnumDef>();
const sourceOrder = ["TPrealTimeData", "realTimeData", "filters/index"];
for (const row of [...enumRows].sort((a, b) => sourceOrder.indexOf(a.source ?? "") - sourceOrder.indexOf(b.source ?? ""))) {
  const name = row.filter ?? "";
  const def = enums.get(name) ?? { name, source: "enums.tsv", values: new Map() };
  let value = Number(row.value);
  // Known defect of the reference UI: the USB main-control failure codes are 36864–36874.
  if (name === "TP_0X04_8Filter" && value >= 32864 && value <= 32874) value += 4000;
  const fill = fills.get(`enum:${name}.${row.value}`);
  // Some filters of the reference carry hard-coded Chinese in the English column.
  const chineseInEnglish = /[\u4e00-\u9fff]/.test(row.label_en ?? "");
  const en = chineseInEnglish ? "" : row.label_en;
  const zh = row.label_zh || (chineseInEnglish ? row.label_en : "");
  if (!def.values.has(value))
    def.values.set(value, {
      en: fill?.en || en || "",
      zh: fill?.["zh-CN"] || zh || "",
      it: fill?.it || row.label_it || "",
    });
  enums.set(name, def);
}
for (const row of tsv(join(src, "spec-enums.tsv"))) {
  const name = row.enum ?? "";
  const def = enums.get(name) ?? { name, source: "spec", values: new Map() };
  def.values.set(Number(row.value), { en: row.en ?? "", zh: "", it: "" });
  enums.set(name, def);
}
/** English of the reference UI's i18n keys that some option lists embed. */
const DEVICE_MANAGE_LABELS: Record<string, string> = {
  normalregulation: "Normal regulation",
  lesy: "LESY",
  forceDischarging: "Forced discharging",
  forceCharging: "Forced charging",
};
const optionEnumNames = new Map(tsv(join(src, "option-enums.tsv")).map((r) => [r.options ?? "", r.enum ?? ""]));
function enumForOptions(id: string, options: string): string {
  const name = optionEnumNames.get(options);
  if (!name) throw new Error(`${id}: option list without an enum name in option-enums.tsv: ${options}`);
  if (!enums.has(name)) {
    const values = new Map<number, { en: string; zh: string; it: string }>();
    for (const pair of options.split("; ")) {
      const eq = pair.indexOf("=");
      const label = pair
        .slice(eq + 1)
        .replace(/^\d+:' \+ \$t\('deviceManage\.(\w+)'\)$/, (_m, k: string) => DEVICE_MANAGE_LABELS[k] ?? k)
        .trim();
      values.set(Number(pair.slice(0, eq)), { en: label, zh: "", it: "" });
    }
    enums.set(name, { name, source: "options", values });
  }
  return name;
}

// ---------- registers ----------
type Entry = Classified & {
  id: string;
  family: string;
  start: number | null;
  end: number | null;
  product: "single" | "three";
  page: number | null;
  pageName: string;
  group: string;
  alsoOnPages: number[];
  labels: Record<Lang, string | undefined>;
};
const entries: Entry[] = [];
const aliases: [string, string][] = [];
const spans = registers
  .filter((r) => (r.id ?? "").split("_").length === 4)
  .map((r) => ({ family: r.family, start: Number(r.addr_start), end: Number(r.addr_end), id: r.id ?? "" }));

function pageOf(page: string): { page: number | null; pageName: string } {
  const m = /^(\d+) (.*?)( \[config list\])?$/.exec(page);
  return m ? { page: Number(m[1]), pageName: m[2] ?? "" } : { page: null, pageName: "" };
}

for (const r of registers) {
  const id = r.id ?? "";
  const start = Number(r.addr_start);
  const end = Number(r.addr_end);
  const family = r.family ?? "";
  const covering = start === end && spans.find((s) => s.family === family && s.start <= start && start <= s.end);
  if (covering && r.page?.endsWith("[config list]")) {
    aliases.push([id, covering.id]);
    continue;
  }
  const fill = fills.get(id);
  const en = r.label_en || fill?.en || "";
  const facts: RowFacts = {
    id,
    family,
    label: en,
    unit: r.unit ?? "",
    enumName: r.enum ? r.enum : r.options_en ? enumForOptions(id, r.options_en) : "",
    control: r.control ?? "",
    settable: family.endsWith("0X03") || (family === "PROTOCOL_ADDR" && !!r.control),
    words: end - start + 1,
    product: family.startsWith("TP") ? "three" : "single",
    page: pageOf(r.page ?? "").page,
    group: r.group ?? "",
  };
  const c = classify(facts, enums, overrides.get(id));
  entries.push({
    ...c,
    id,
    family,
    start,
    end,
    product: facts.product,
    ...pageOf(r.page ?? ""),
    group: c.group,
    alsoOnPages: [],
    labels: labelsOf(en, r.label_zh || fill?.["zh-CN"] || "", r.label_it || fill?.it || ""),
  });
}

const byKey = new Map<string, Entry>();
for (const r of keys) {
  const id = r.key ?? "";
  const { page, pageName } = pageOf(r.page ?? "");
  const seen = byKey.get(id);
  if (seen) {
    if (page !== null && page !== seen.page) seen.alsoOnPages.push(page);
    if (r.control && !seen.settable) Object.assign(seen, { settable: true });
    continue;
  }
  const fill = fills.get(id);
  const en = r.label_en || fill?.en || "";
  const facts: RowFacts = {
    id,
    family: "SP_KEY",
    label: en,
    unit: r.unit ?? "",
    enumName: r.enum ?? "",
    control: r.control ?? "",
    settable: !!r.control,
    words: 1,
    product: "single",
    page,
    group: r.group ?? "",
  };
  const entry: Entry = {
    ...classify(facts, enums, overrides.get(id)),
    id,
    family: "SP_KEY",
    start: null,
    end: null,
    product: "single",
    page,
    pageName,
    group: r.group ?? "",
    alsoOnPages: [],
    labels: labelsOf(en, r.label_zh || fill?.["zh-CN"] || "", r.label_it || fill?.it || ""),
  };
  byKey.set(id, entry);
  entries.push(entry);
}
// A key first seen read-only and later settable: re-derive audiences.
for (const e of byKey.values()) if (e.settable && !e.audience.includes("w")) Object.assign(e, { audience: "rw|r-|r-" });

// ---------- write TS ----------
const banner = "// Generated by packages/domain/scripts/build-catalogue.ts from catalogue-source/. Do not edit.\n";
const lit = (v: unknown) => JSON.stringify(v);
function rowOf(e: Entry): string {
  const cells = [e.id, e.start, e.end, e.group, e.type, e.scale, e.unit, e.min, e.max, e.enum, e.audience];
  const extra = e.alsoOnPages.length ? `, ${lit(e.alsoOnPages)}` : "";
  return `  [${cells.map(lit).join(", ")}${extra}],`;
}
for (const f of readdirSync(outDir)) if (f.endsWith(".generated.ts")) rmSync(join(outDir, f));

const chunks: { file: string; constName: string; family: string; page: number | null; pageName: string; rows: string[] }[] = [];
const familyOrder = ["TP_0X04", "TP_0X03", "HM_0X04", "HM_0X03", "HM6_0X04", "HM6_0X03", "hm6_0X03", "PROTOCOL_ADDR", "SP_KEY"];
const groups = new Map<string, Entry[]>();
for (const e of entries) {
  const k = `${e.family}|${e.page ?? "none"}`;
  groups.set(k, [...(groups.get(k) ?? []), e]);
}
const sortedGroups = [...groups.entries()].sort(([a], [b]) => {
  const [fa = "", pa = ""] = a.split("|");
  const [fb = "", pb = ""] = b.split("|");
  return familyOrder.indexOf(fa) - familyOrder.indexOf(fb) || (Number(pa) || 0) - (Number(pb) || 0);
});
for (const [, list] of sortedGroups) {
  const first = list[0];
  if (!first) continue;
  const rows = list.map(rowOf);
  let part = 0;
  let current: string[] = [];
  let lines = 0;
  const flush = () => {
    if (!current.length) return;
    part++;
    const base = `${first.family.toLowerCase().replace(/_/g, "-")}.${first.page === null ? "unpaged" : `page-${first.page}`}`;
    chunks.push({
      file: `${base}${part > 1 || rows.length > current.length ? `.part-${part}` : ""}.generated.ts`,
      constName: `${first.family}_${first.page === null ? "UNPAGED" : `P${first.page}`}_${part}`,
      family: first.family,
      page: first.page,
      pageName: first.pageName,
      rows: current,
    });
    current = [];
    lines = 0;
  };
  for (const row of rows) {
    const cost = row.length > 128 ? 14 : 1;
    if (lines + cost > 360) flush();
    current.push(row);
    lines += cost;
  }
  flush();
}
const written: string[] = [];
for (const c of chunks) {
  const text = `${banner}import type { RegisterRow } from "./types.ts";

/** ${c.family}${c.page === null ? ", no page (labels only)" : `, page ${c.page} ${c.pageName}`}. */
export const ${c.constName} = {
  family: ${lit(c.family)},
  page: ${lit(c.page)},
  pageName: ${lit(c.pageName)},
  rows: [
${c.rows.join("\n")}
  ],
} as const satisfies { family: string; page: number | null; pageName: string; rows: readonly RegisterRow[] };
`;
  writeFileSync(join(outDir, c.file), text);
  written.push(join(outDir, c.file));
}
const indexText = `${banner}${chunks.map((c) => `import { ${c.constName} } from "./${c.file.replace(/\.ts$/, ".ts")}";`).join("\n")}

/** Every chunk of the register catalogue, in family and page order. */
export const REGISTER_CHUNKS = [
${chunks.map((c) => `  ${c.constName},`).join("\n")}
] as const;

/** Single-register ids of the reference's visibility lists that are one word of a 32-bit value. */
export const REGISTER_WORD_ALIASES = {
${aliases.map(([a, b]) => `  ${a}: ${lit(b)},`).join("\n")}
} as const;
`;
writeFileSync(join(outDir, "chunks.generated.ts"), indexText);
written.push(join(outDir, "chunks.generated.ts"));

// enums
const enumList = [...enums.values()].sort((a, b) => a.name.localeCompare(b.name));
const enumLines = enumList.map((d) => {
  const values = [...d.values.keys()].sort((a, b) => a - b);
  return `  ${d.name}: { source: ${lit(d.source)}, values: ${lit(values).replace(/,/g, ", ")} },`;
});
const enumFiles: string[][] = [];
for (let i = 0; i < enumLines.length; i += 300) enumFiles.push(enumLines.slice(i, i + 300));
writeFileSync(
  join(outDir, "enums.generated.ts"),
  `${banner}/** Every enumeration: its values (labels under \`enums:<name>.<value>\`) and where it comes from. */
export const ENUM_TABLE = {
${enumLines.join("\n")}
} as const;
`,
);
written.push(join(outDir, "enums.generated.ts"));

// ---------- labels ----------
const complete = process.argv.includes("--require-complete");
const out: Record<Lang, { registers: Record<string, string>; enums: Record<string, Record<string, string>> }> =
  Object.fromEntries(LANGS.map((l) => [l, { registers: {}, enums: {} }])) as never;
const missing: string[] = [];
for (const e of [...entries].sort((a, b) => a.id.localeCompare(b.id))) {
  if (LANGS.some((l) => !e.labels[l])) {
    missing.push(e.id);
    continue;
  }
  for (const l of LANGS) out[l].registers[e.id] = e.labels[l] ?? "";
}
for (const d of enumList) {
  for (const [value, v] of [...d.values.entries()].sort((a, b) => a[0] - b[0])) {
    // Reviewed labels (label-fills.tsv `enum:` rows) win for every enumeration, option lists included.
    const fill = fills.get(`enum:${d.name}.${value}`);
    const labels = labelsOf(fill?.en || v.en, fill?.["zh-CN"] || v.zh, fill?.it || v.it);
    if (LANGS.some((l) => !labels[l])) {
      missing.push(`${d.name}.${value}`);
      continue;
    }
    for (const l of LANGS) {
      out[l].enums[d.name] ??= {};
      const table = out[l].enums[d.name];
      if (table) table[String(value)] = labels[l] ?? "";
    }
  }
}
for (const l of LANGS) {
  for (const ns of ["registers", "enums"] as const) {
    const file = join(localesDir, l, `${ns}.json`);
    writeFileSync(file, `${JSON.stringify(out[l][ns], null, 2)}\n`);
  }
}
for (const lang of LANGS) {
  const set = untranslated.get(lang) ?? new Set();
  writeFileSync(join(here, `.untranslated.${lang}.txt`), [...set].sort().join("\n"));
}
process.stderr.write(
  `catalogue: ${entries.length} entries (${entries.filter((e) => e.family !== "SP_KEY").length} registers, ${byKey.size} keys), ${aliases.length} word aliases, ${enumList.length} enums, ${missing.length} entries lacking a label in some language\n`,
);
const biome = spawnSync(join(here, "../../../node_modules/.bin/biome"), ["check", "--write", ...written], { stdio: "inherit" });
if (biome.status !== 0) process.exitCode = 1;
if (complete && missing.length) process.exitCode = 1;
