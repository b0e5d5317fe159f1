import type { Reporter, SerializedError, TestModule } from "vitest/node";

/**
 * Ends every run with one plain line, `Tests: N passed, N failed, N skipped`, so CI can tell a
 * run that tested nothing from one that passed. A file whose set-up failed (its tests then count
 * as skipped) and an error outside any test each count as one failure. Before it, the slowest
 * files, so that the run's length (aim: about 15 minutes) shows where it goes.
 */
const SLOWEST = 12;
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
    const slowest = testModules
      .map((module) => ({ file: module.relativeModuleId, s: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.s - a.s)
      .slice(0, SLOWEST);
    if (testModules.length > SLOWEST) {
      process.stdout.write(`\nSlowest files (tests and hooks, seconds):\n`);
      for (const { file, s } of slowest) process.stdout.write(`${s.toFixed(1).padStart(8)}  ${file}\n`);
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
