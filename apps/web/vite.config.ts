import { fileURLToPath } from "node:url";
import { PRODUCT } from "@ess/domain";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { apiPaths } from "./build/api-paths.ts";
import { precompress } from "./build/precompress.ts";
import { buildIdentity, versionFile } from "./build/version-file.ts";

const outDir = fileURLToPath(new URL("./dist", import.meta.url));
const identity = buildIdentity(PRODUCT.version);

export default defineConfig({
  plugins: [react(), apiPaths(), versionFile(identity), precompress(outDir)],
  define: {
    __APP_VERSION__: JSON.stringify(identity.version),
    __APP_BUILD__: JSON.stringify(identity.build),
    __APP_BUILT_AT__: JSON.stringify(identity.builtAt),
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ["/login", "/sys", "/auth", "/admin", "/code", "/api", "/healthz", "/readyz", "/act", "/mqtt"].map((p) => [
        p,
        { target: "http://127.0.0.1:7072", ws: true },
      ]),
    ),
  },
});
