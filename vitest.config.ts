import { defineConfig } from "vitest/config";
import { apiPaths } from "./apps/web/build/api-paths.ts";

/**
 * One run, three projects: unit tests beside the code, server integration tests against a
 * real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set), and browser tests.
 */
export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Vitest's default is one worker fewer than the cores: one on a two-core machine. Server and
    // browser files spend most of their time waiting on databases, sockets, timers and pages, so
    // two files at a time share the machine well (each browser file has its own server, ports and
    // data folder).
    maxWorkers: 2,
    projects: [
      {
        // The web's build-time module and values, for its units.
        plugins: [apiPaths()],
        define: { __APP_VERSION__: '"3.11.0"', __APP_BUILD__: '"v-test"', __APP_BUILT_AT__: '"2025-01-01T00:00:00.000Z"' },
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
          // A few units walk thousands of cases (every five minutes of four weeks in seven zones);
          // next to server files on two cores they need more than the default five seconds.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "server",
          include: ["apps/server/test/**/*.test.ts", "apps/simulator/test/**/*.test.ts", "apps/utility-sim/test/**/*.test.ts"],
          globalSetup: ["apps/server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { NODE_ENV: "test" },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["apps/e2e/tests/**/*.test.ts"],
          // A page on a busy two-core machine can take more than the default second to settle.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A browser step on a loaded two-core machine now and then misses its poll window; a test
          // that fails twice in a row still fails the run, and the retry shows in the report.
          retry: 1,
        },
      },
    ],
  },
});
