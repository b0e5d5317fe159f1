/**
 * The console runs on the Node that the `node` package pins (package.json's devDependencies, inside
 * its `engines` range), whatever Node the machine's own npm runs on. npm scripts put that pinned
 * Node first on the PATH; this checks that it is the one running.
 */
import { readFileSync } from "node:fs";

interface Manifest {
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
}

export const readManifest = (): Manifest =>
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Manifest;

/** The pinned version ("24.21.0"). */
export function pinnedNode(manifest: Manifest): string {
  const pinned = manifest.devDependencies?.node;
  if (!pinned || !/^\d+\.\d+\.\d+$/.test(pinned))
    throw new Error("package.json pins no exact Node version (devDependencies.node)");
  return pinned;
}

/** What is wrong with the running Node, in one line, or null when it is the pinned one. */
export function nodeProblem(running: string, manifest: Manifest): string | null {
  const pinned = pinnedNode(manifest);
  if (running.replace(/^v/, "") === pinned) return null;
  return (
    `ESS Console runs on Node ${pinned} (installed by npm ci as the \`node\` package), but this is Node ${running}. ` +
    "Start it with npm (npm start, npm test), which puts the pinned Node first; run npm ci if node_modules is missing."
  );
}
