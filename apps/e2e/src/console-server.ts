import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ServerProcess, startServerProcess, tempDataDir } from "@ess/server/testing";

const WEB_DIST = fileURLToPath(new URL("../../web/dist/index.html", import.meta.url));

export const E2E_ADMIN_PASSWORD = "E2eAdmin2025";

/**
 * The built console served by the real server on free ports, with a fresh data folder. Sign-in
 * needs no captcha or slide verification (ESS_CAPTCHA=off) unless `env` sets ESS_CAPTCHA=on.
 */
export async function startConsole(env: Record<string, string> = {}): Promise<{ url: string; server: ServerProcess }> {
  if (!existsSync(WEB_DIST)) throw new Error("The web console is not built: run `npm run build` first (npm test does).");
  const server = startServerProcess({ DATA_DIR: tempDataDir("ess-e2e-"), ESS_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, ...env });
  return { url: await server.ready(), server };
}
