// Reads the JSON reports of vitest and Playwright into counts and one line per
// failure: CI keeps only the tail of a run's output, so the closing summary
// must name what failed.
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

// The first line of an error tells a failure apart in the summary, and carries the evidence a
// test puts there: kept whole up to the length past which CI's view of the output folds a line.
const firstLine = (message = '') => (stripVTControlCharacters(message).trim().split('\n')[0] ?? '').slice(0, 1000);

/** @typedef {{ passed: number, failed: number, failures: string[] }} Outcome */

/**
 * A duration as the summary prints it: whole minutes and seconds, rounded to the second
 * first (59.6 s is `1m00s`, not `0m60s`).
 * @param {number} ms
 */
export function minutesAndSeconds(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/**
 * @param {import('vitest/reporters').JsonTestResults} report
 * @param {string} root
 * @returns {Outcome}
 */
export function vitestOutcome(report, root) {
  const failures = [];
  for (const file of report.testResults) {
    const where = path.relative(root, file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file whose hooks or imports fail fails no test but fails the run: count it.
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where}: ${firstLine(file.message)}`);
  }
  if (failures.length === 0 && !report.success) failures.push('vitest reported failure without a failed test or file');
  return { passed: report.numPassedTests, failed: failures.length, failures };
}

/**
 * Each file's wall time in a vitest run, its hooks included, slowest first, from what
 * file-durations-reporter.mjs wrote: the cluster suite's files carry their own budgets
 * (docs/testing.md).
 * @param {{ file: string, ms: number }[]} durations
 * @param {string} root
 * @returns {{ file: string, ms: number }[]}
 */
export function fileTimings(durations, root) {
  return durations.map(({ file, ms }) => ({ file: path.relative(root, file), ms })).sort((a, b) => b.ms - a.ms);
}

/**
 * Each spec file's time in a Playwright run, slowest first: the sum of its tests' runs (one
 * worker runs a file's tests one after another).
 * @param {import('@playwright/test/reporter').JSONReport} report
 * @param {string} root
 * @returns {{ file: string, ms: number }[]}
 */
export function playwrightFileTimings(report, root) {
  /** @type {Map<string, number>} */
  const byFile = new Map();
  /** @param {import('@playwright/test/reporter').JSONReportSuite[] | undefined} suites */
  const visit = (suites) => {
    for (const suite of suites ?? []) {
      for (const spec of suite.specs) {
        const ms = spec.tests.flatMap((test) => test.results).reduce((sum, result) => sum + result.duration, 0);
        byFile.set(spec.file, (byFile.get(spec.file) ?? 0) + ms);
      }
      visit(suite.suites);
    }
  };
  visit(report.suites);
  return [...byFile]
    .map(([file, ms]) => ({ file: path.relative(root, path.join(report.config.rootDir, file)), ms }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * The `count` slowest files of every run: the suite's budget (docs/testing.md) is spent there first.
 * @param {{ file: string, ms: number }[][]} runs
 */
export const slowestFiles = (runs, count = 10) =>
  runs
    .flat()
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);

/**
 * Playwright nests describe blocks as suites under one suite per file.
 * @param {import('@playwright/test/reporter').JSONReportSuite[] | undefined} suites
 * @param {string[]} titles
 * @param {string[]} failures
 */
function failedSpecs(suites, titles, failures) {
  for (const suite of suites ?? []) {
    const suiteTitles = suite.title === suite.file ? titles : [...titles, suite.title];
    for (const spec of suite.specs) {
      if (spec.ok) continue;
      const error = spec.tests.flatMap((test) => test.results).find((result) => result.error)?.error;
      failures.push(`${spec.file}:${spec.line} › ${[...suiteTitles, spec.title].join(' › ')}: ${firstLine(error?.message)}`);
    }
    failedSpecs(suite.suites, suiteTitles, failures);
  }
  return failures;
}

/**
 * @param {import('@playwright/test/reporter').JSONReport} report
 * @returns {Outcome}
 */
export function playwrightOutcome(report) {
  const failures = failedSpecs(report.suites, [], []);
  for (const error of report.errors ?? []) failures.push(`playwright: ${firstLine(error.message)}`);
  return { passed: report.stats.expected + report.stats.flaky, failed: Math.max(report.stats.unexpected, failures.length), failures };
}
