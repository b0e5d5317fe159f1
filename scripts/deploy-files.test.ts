import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { configSchema } from "../apps/server/src/config/config.ts";

/**
 * The deployment files (deploy/) against what the console reads. Helm is not installable here,
 * so the chart is checked by reading its templates: every value they use is defined, every block
 * is closed, and every environment variable they (and the compose file) give the console is one
 * it knows — a misspelt variable would otherwise be ignored silently and the default used.
 * `.ci/run` also has Docker Compose validate the compose file.
 */

const root = fileURLToPath(new URL("..", import.meta.url));
const chart = join(root, "deploy/helm/ess-console");
const read = (path: string) => readFileSync(path, "utf8");
const templates = readdirSync(join(chart, "templates")).map((name) => ({ name, text: read(join(chart, "templates", name)) }));
const known = new Set(Object.keys(configSchema.shape));

function hasPath(object: unknown, path: string[]): boolean {
  let at: unknown = object;
  for (const key of path) {
    if (typeof at !== "object" || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

describe("Helm chart", () => {
  const meta = parse(read(join(chart, "Chart.yaml")));
  const values = parse(read(join(chart, "values.yaml")));

  it("names itself after its folder, as a v2 chart with a semantic version", () => {
    expect(meta).toMatchObject({ apiVersion: "v2", name: "ess-console", type: "application" });
    expect(meta.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("uses only values that values.yaml defines", () => {
    const missing = templates.flatMap(({ name, text }) =>
      [...text.matchAll(/\.Values((?:\.\w+)+)/g)]
        .map((m) => (m[1] ?? "").slice(1).split("."))
        .filter((path) => !hasPath(values, path))
        .map((path) => `${name}: ${path.join(".")}`),
    );
    expect(missing).toEqual([]);
  });

  it("closes every action and every block it opens", () => {
    for (const { name, text } of templates) {
      expect(text.split("{{").length, `${name}: {{ and }}`).toBe(text.split("}}").length);
      const opened = text.match(/\{\{-?\s*(if|range|define|with)\b/g)?.length ?? 0;
      const closed = text.match(/\{\{-?\s*end\s*-?\}\}/g)?.length ?? 0;
      expect(closed, `${name}: blocks`).toBe(opened);
    }
  });

  it("gives the console only environment variables it reads", () => {
    const statefulSet = templates.find((t) => t.name === "statefulset.yaml")?.text ?? "";
    const names = [...statefulSet.matchAll(/- name: ([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] ?? "");
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  it("runs the processes with the probes the console answers", () => {
    const statefulSet = templates.find((t) => t.name === "statefulset.yaml")?.text ?? "";
    expect(statefulSet).toMatch(/readinessProbe:\s+httpGet:\s+path: \/readyz/);
    expect(statefulSet).toMatch(/livenessProbe:\s+httpGet:\s+path: \/healthz/);
  });
});

describe("Compose file", () => {
  const compose = parse(read(join(root, "deploy/compose/compose.yaml")), { merge: true });
  const consoles = Object.entries(compose.services as Record<string, { environment?: Record<string, string> }>).filter(([name]) =>
    name.startsWith("console"),
  );

  it("runs three console processes with the same settings, each under its own host name", () => {
    expect(consoles.map(([name]) => name)).toEqual(["console1", "console2", "console3"]);
    const [first, ...others] = consoles.map(([, service]) => service);
    for (const other of others) expect(other.environment).toEqual(first?.environment);
    const hosts = new Set(consoles.map(([, service]) => (service as { hostname?: string }).hostname));
    expect(hosts.size).toBe(3);
  });

  it("gives the console only environment variables it reads, with a shared database and an external broker", () => {
    const env = consoles[0]?.[1].environment ?? {};
    expect(Object.keys(env).filter((n) => !known.has(n))).toEqual([]);
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(env.MQTT_URL).toMatch(/^mqtt:\/\//);
  });
});
