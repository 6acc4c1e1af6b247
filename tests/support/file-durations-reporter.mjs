// A vitest reporter that writes each test file's wall time, its hooks included, to the JSON
// file named by MERIDIAN_FILE_DURATIONS: the JSON report's times span a file's tests only, so
// a file whose work is a `beforeAll` (the game day's) shows 0 s there.
import { writeFileSync } from 'node:fs';

export default class FileDurationsReporter {
  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules) {
    const output = process.env.MERIDIAN_FILE_DURATIONS;
    if (!output) return;
    const durations = testModules.map((module) => ({ file: module.moduleId, ms: Math.round(module.diagnostic().duration) }));
    writeFileSync(output, `${JSON.stringify(durations, null, 2)}\n`);
  }
}
