import { execSync } from "node:child_process";
import type { Plugin } from "vite";

/** The build's identity: the version check compares the served version.json with it. */
export function buildIdentity(productVersion: string) {
  let commit = "local";
  try {
    commit =
      execSync("git rev-parse --short HEAD", { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() || commit;
  } catch {
    // not a git checkout: the timestamp alone identifies the build
  }
  const builtAt = new Date().toISOString();
  return { version: productVersion, build: `v${builtAt.slice(0, 10)}-${commit}`, builtAt };
}

export function versionFile(identity: ReturnType<typeof buildIdentity>): Plugin {
  return {
    name: "ess-version-file",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "version.json", source: `${JSON.stringify(identity)}\n` });
    },
  };
}
