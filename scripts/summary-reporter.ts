import type { Reporter, SerializedError, TestModule } from "vitest/node";

/**
 * Ends every run with one plain line, `Tests: N passed, N failed, N skipped`, so CI can tell a
 * run that tested nothing from one that passed. A file whose set-up failed (its tests then count
 * as skipped) and an error outside any test each count as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[], unhandledErrors: readonly SerializedError[]) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      const testFailed = [...module.children.allTests()].some((test) => test.result().state === "failed");
      if (module.state() === "failed" && !testFailed) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
