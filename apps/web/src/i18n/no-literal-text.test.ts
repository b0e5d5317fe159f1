import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rolldown/parseAst";
import { describe, expect, it } from "vitest";

/**
 * Every user-visible string of the web console goes through i18n. This scan parses each source
 * file and fails on text a user would read that is written in the code: JSX text, and string
 * literals given to attributes or options that antd shows (title, placeholder, message, …).
 */
const SRC = fileURLToPath(new URL("../", import.meta.url));
const VISIBLE = new Set([
  "title",
  "placeholder",
  "label",
  "alt",
  "aria-label",
  "okText",
  "cancelText",
  "content",
  "description",
  "message",
  "subTitle",
  "tooltip",
  "emptyText",
  "textContent",
]);
const WORDS = /\p{L}{2,}/u;
/** An i18n key such as `shell:tabs.home` is not text: it is looked up. */
const I18N_KEY = /^[a-z][A-Za-z0-9]*:[A-Za-z0-9_.]+$/;
const isText = (text: string | null): text is string => Boolean(text && WORDS.test(text) && !I18N_KEY.test(text));

type Node = { type: string; start: number; [key: string]: unknown };

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function walk(node: unknown, visit: (node: Node) => void) {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  const n = node as Node;
  if (typeof n.type === "string") visit(n);
  for (const [key, value] of Object.entries(n)) if (key !== "parent") walk(value, visit);
}

const literalText = (node: unknown): string | null => {
  const n = node as Node | null;
  if (!n) return null;
  if (n.type === "Literal" && typeof n.value === "string") return n.value as string;
  if (n.type === "TemplateLiteral") return (n.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked).join(" ");
  if (n.type === "JSXExpressionContainer") return literalText(n.expression);
  return null;
};

export function findLiteralText(source: string, file = "file.tsx"): string[] {
  const program = parseAst(source, { lang: file.endsWith(".tsx") ? "tsx" : "ts" }, file);
  const found: string[] = [];
  const line = (at: number) => source.slice(0, at).split("\n").length;
  walk(program, (node) => {
    if (node.type === "JSXText" && WORDS.test(String(node.value)))
      found.push(`${line(node.start)}: ${String(node.value).trim()}`);
    if (node.type === "JSXAttribute") {
      const name = (node.name as { name?: string }).name ?? "";
      const text = literalText(node.value);
      if (VISIBLE.has(name) && isText(text)) found.push(`${line(node.start)}: ${name}="${text}"`);
    }
    if (node.type === "Property" || node.type === "AssignmentExpression") {
      const key =
        node.type === "Property"
          ? (node.key as { name?: string }).name
          : (node.left as { property?: { name?: string } }).property?.name;
      const text = literalText(node.type === "Property" ? node.value : node.right);
      if (key && VISIBLE.has(key) && isText(text)) found.push(`${line(node.start)}: ${key}: "${text}"`);
    }
  });
  return found;
}

describe("user-visible text in the web code goes through i18n", () => {
  it("the scan finds literal text where it should", () => {
    const sample = `const a = <p title="Device list">Hello there {t("x")}</p>;
      notification.warning({ message: "Offline", description: t("y") });
      el.textContent = "Reload";
      const route = { handle: { title: "shell:tabs.home" } };
      const ok = <b data-testid="just-an-id" className="big">{t("z")} ⚡ 3.11.0</b>;`;
    expect(findLiteralText(sample)).toEqual([
      '1: title="Device list"',
      "1: Hello there",
      '2: message: "Offline"',
      '3: textContent: "Reload"',
    ]);
  });

  for (const file of files(SRC)) {
    it(relative(SRC, file), () => {
      expect(findLiteralText(readFileSync(file, "utf8"), file)).toEqual([]);
    });
  }
});
