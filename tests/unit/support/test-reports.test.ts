import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSync } from '../../../tools/lib/command.mjs';
import {
  fileTimings,
  minutesAndSeconds,
  playwrightFileTimings,
  playwrightOutcome,
  slowestFiles,
  vitestOutcome,
} from '../../support/test-reports.mjs';

// Real reports: vitest and Playwright run on small suites made to fail in each way a run can.
const ROOT = path.resolve(import.meta.dirname, '../../..');
let dir: string;

function runReporting(command: string, args: string[], env: Record<string, string> = {}) {
  // Both exit non-zero here: the suites are made to fail.
  runSync(path.join(ROOT, 'node_modules/.bin', command), args, { cwd: dir, env: { ...process.env, CI: '', ...env }, check: false });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'meridian-test-reports-'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(
    path.join(dir, 'failing.test.js'),
    "test('passes', () => {});\ntest('fails', () => { throw new Error('first line\\nsecond line'); });\n",
  );
  writeFileSync(path.join(dir, 'slow.test.js'), "test('waits', () => new Promise((resolve) => setTimeout(resolve, 300)));\n");
  writeFileSync(
    path.join(dir, 'slow-hook.test.js'),
    "beforeAll(() => new Promise((resolve) => setTimeout(resolve, 600)));\ntest('quick', () => {});\n",
  );
  writeFileSync(path.join(dir, 'hook.test.js'), "beforeAll(() => { throw new Error('hook broke'); });\ntest('never runs', () => {});\n");
  writeFileSync(path.join(dir, 'import.test.js'), "import 'no-such-module';\ntest('never loads', () => {});\n");
  writeFileSync(
    path.join(dir, 'failing.e2e.js'),
    "const { test, expect } = require('@playwright/test');\ntest('passes', () => {});\ntest.describe('group', () => {\n  test('fails', () => { expect(1).toBe(2); });\n});\n",
  );
  writeFileSync(
    path.join(dir, 'slow.e2e.js'),
    "const { test } = require('@playwright/test');\ntest('waits', () => new Promise((resolve) => setTimeout(resolve, 400)));\n",
  );
  writeFileSync(path.join(dir, 'playwright.config.js'), "module.exports = { testMatch: '*.e2e.js' };\n");
  runReporting(
    'vitest',
    [
      'run',
      '--globals',
      '--root',
      dir,
      '--reporter=json',
      '--outputFile.json=vitest.json',
      `--reporter=${path.join(ROOT, 'tests/support/file-durations-reporter.mjs')}`,
    ],
    { MERIDIAN_FILE_DURATIONS: path.join(dir, 'durations.json') },
  );
  runReporting('playwright', ['test', '--reporter=json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'playwright.json' });
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vitestOutcome', () => {
  it('names a failed test, a failed hook and a file that cannot load, each once', () => {
    const outcome = vitestOutcome(JSON.parse(readFileSync(path.join(dir, 'vitest.json'), 'utf8')), dir);
    expect(outcome.passed).toBe(3);
    expect(outcome.failures.sort()).toEqual([
      'failing.test.js › fails: Error: first line',
      'hook.test.js: hook broke',
      expect.stringMatching(/^import\.test\.js: .*no-such-module/),
    ]);
    expect(outcome.failed).toBe(3);
  });
});

describe('fileTimings', () => {
  it("lists every file's wall time, its hooks included, slowest first", () => {
    const timings = fileTimings(JSON.parse(readFileSync(path.join(dir, 'durations.json'), 'utf8')), dir);
    expect(timings.map(({ file }) => file).sort()).toEqual([
      'failing.test.js',
      'hook.test.js',
      'import.test.js',
      'slow-hook.test.js',
      'slow.test.js',
    ]);
    expect(timings.slice(0, 2)).toEqual([
      { file: 'slow-hook.test.js', ms: expect.any(Number) },
      { file: 'slow.test.js', ms: expect.any(Number) },
    ]);
    expect(timings[0]?.ms).toBeGreaterThanOrEqual(600);
    expect(timings[1]?.ms).toBeGreaterThanOrEqual(300);
  });
});

describe('playwrightFileTimings and slowestFiles', () => {
  it("lists each spec file's time, slowest first, and the slowest files of every run together", () => {
    const report = JSON.parse(readFileSync(path.join(dir, 'playwright.json'), 'utf8'));
    const e2e = playwrightFileTimings(report, dir);
    expect(e2e.map(({ file }) => file)).toEqual(['slow.e2e.js', 'failing.e2e.js']);
    expect(e2e[0]?.ms).toBeGreaterThanOrEqual(400);
    const vitest = fileTimings(JSON.parse(readFileSync(path.join(dir, 'durations.json'), 'utf8')), dir);
    const slowest = slowestFiles([vitest, e2e], 3);
    expect(slowest).toHaveLength(3);
    expect(slowest.map(({ file }) => file)).toEqual(expect.arrayContaining(['slow-hook.test.js', 'slow.e2e.js']));
    expect(slowest.map(({ ms }) => ms)).toEqual([...slowest.map(({ ms }) => ms)].sort((a, b) => b - a));
    expect(slowestFiles([vitest, e2e])).toHaveLength(vitest.length + e2e.length);
  });
});

describe('playwrightOutcome', () => {
  it('names a failed test with its describe block and the first line of its error, without colour codes', () => {
    const report = JSON.parse(readFileSync(path.join(dir, 'playwright.json'), 'utf8'));
    const outcome = playwrightOutcome(report);
    expect(outcome).toEqual({
      passed: 2,
      failed: 1,
      failures: ['failing.e2e.js:4 › group › fails: Error: expect(received).toBe(expected) // Object.is equality'],
    });
  });
});

describe('minutesAndSeconds', () => {
  it.each([
    [0, '0m00s'],
    [59_400, '0m59s'],
    [59_600, '1m00s'],
    [2_999_600, '50m00s'],
    [3_061_000, '51m01s'],
  ])('prints %d ms as %s', (ms, printed) => {
    expect(minutesAndSeconds(ms)).toBe(printed);
  });
});
