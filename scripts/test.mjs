// `npm test`: every suite, in order, on a fresh machine too. Installs what the
// suites drive, type-checks and lints, runs the unit tests, the integration
// tests (real server processes) and the deployment tests (the Docker image and
// compose stack on a Docker engine they install and start themselves, the Helm
// chart with the real helm), then the end-to-end tests in Chromium, and closes
// with one line of totals. The host suites share one production build; the
// deployment tests build the Docker image.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/app-server.mjs';
import { ensureBrowser } from './lib/system-deps.mjs';

// Not test-results/: Playwright empties that folder when it starts.
const RESULTS = path.join(ROOT, 'test-reports');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

function run(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  return result.status === 0;
}

function unitCounts() {
  const file = path.join(RESULTS, 'unit-report.json');
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // A file that fails to load fails no test but fails the run: count it.
  const failed = report.numFailedTests || (report.success ? 0 : 1);
  return { passed: report.numPassedTests, failed };
}

function e2eCounts() {
  const file = path.join(RESULTS, 'e2e-report.json');
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
ensureBrowser();

const outcomes = [];
outcomes.push(run('type check', bin('tsc'), ['--noEmit']));
outcomes.push(run('lint (one-way imports between rooms)', bin('eslint'), ['src']));
outcomes.push(
  run('unit, integration, deployment and rollout tests (vitest: tests/unit, tests/integration, tests/deployment, tests/rollout)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(RESULTS, 'unit-report.json')}`]),
);
outcomes.push(run('end-to-end tests (playwright, Chromium)', bin('playwright'), ['test']));

const unit = unitCounts();
const e2e = e2eCounts();
const typeFailures = (outcomes[0] ? 0 : 1) + (outcomes[1] ? 0 : 1);
const passed = unit.passed + e2e.passed;
const failed = unit.failed + e2e.failed + typeFailures;
console.log(`\nvitest ${unit.passed} passed, ${unit.failed} failed; e2e ${e2e.passed} passed, ${e2e.failed} failed; type check and lint ${typeFailures ? 'failed' : 'ok'}`);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(outcomes.every(Boolean) && failed === 0 ? 0 : 1);
