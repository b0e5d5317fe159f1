import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeProblem, pinnedNode, readManifest } from "./pinned-node.ts";

describe("the pinned Node", () => {
  const manifest = readManifest();

  it("is what runs the console's scripts and tests", () => {
    expect(nodeProblem(process.version, manifest)).toBeNull();
  });

  it("lies within the engines range the project declares", () => {
    const major = Number(pinnedNode(manifest).split(".")[0]);
    expect(manifest.engines?.node).toBe(`>=${major} <${major + 1}`);
  });

  it("names both versions when another Node runs", () => {
    const problem = nodeProblem("v20.20.2", manifest);
    expect(problem).toContain(`Node ${pinnedNode(manifest)}`);
    expect(problem).toContain("v20.20.2");
  });

  it("keeps npm's errors on the screen while its warnings about its own older Node are left out", () => {
    const npmrc = readFileSync(new URL("../.npmrc", import.meta.url), "utf8");
    expect(npmrc).toMatch(/^loglevel=error$/m);
    expect(npmrc).not.toMatch(/^(force|engine-strict=false|ignore-scripts)/m);
  });
});
