import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built console. Hashed assets are cached for a year; index.html and the version
 * file must be revalidated so a new build reaches every browser. Each file of the build is a
 * route of its own (no wildcard): a path that is not one of them — climbing out with `..`,
 * encoded or with backslashes, a NUL, a name too long for the file system — is answered 404 by
 * the router and never reaches the disk. A new build needs a restart (`npm start` builds first).
 */
export async function registerStaticWeb(app: FastifyInstance, distDir: string | null) {
  if (!distDir || !existsSync(join(distDir, "index.html"))) {
    app.log.warn({ distDir }, "the web console is not built; run `npm run build` (npm start does it)");
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: "/",
    preCompressed: true,
    wildcard: false,
    setHeaders(reply, path) {
      reply.header("Cache-Control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  return true;
}
