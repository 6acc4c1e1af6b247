// `npm test`: every suite, in order, on a fresh machine too. Installs what the
// suites drive, type-checks and lints, runs the unit tests, the integration
// tests (real server processes) and the deployment tests (the Docker image and
// compose stack on a Docker engine they install and start themselves, the Helm
// chart with the real helm), the end-to-end tests in Chromium, then the chart on a
// local Kubernetes cluster built from its Go modules (built in the background from
// the start), and closes with every failure named, each suite's time and one line
// of totals. The host suites share one production build; the deployment tests build
// the Docker image.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { ensureBrowser } from '../../tools/debian-packages.mjs';
import { onPinnedNode } from '../../tools/node-runtime.mjs';
import { recordPackageSet } from './host-packages.mjs';
import { fileTimings, minutesAndSeconds, playwrightFileTimings, playwrightOutcome, slowestFiles, vitestOutcome } from './test-reports.mjs';

// Not test-results/: Playwright empties that folder when it starts.
const RESULTS = path.join(ROOT, 'test-reports');
const bin = (/** @type {string} */ name) => path.join(ROOT, 'node_modules', '.bin', name);

/**
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env] added to this process's
 */
function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const began = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env } });
  timings.push({ label: label.replace(/ \(.*$/, ''), ms: Date.now() - began });
  return result.status === 0;
}

/** Each suite's wall time, for the summary: the budgets (docs/testing.md) are read against it. */
/** @type {{ label: string, ms: number }[]} */
const timings = [];
const startedAt = Date.now();

/**
 * The outcome of the JSON report `name`, read by `toOutcome`; a failure when it is missing.
 * @template Report
 * @param {string} name
 * @param {(report: Report) => import('./test-reports.mjs').Outcome} toOutcome
 */
function readOutcome(name, toOutcome) {
  const file = path.join(RESULTS, name);
  if (!existsSync(file)) return { passed: 0, failed: 1, failures: [`no report at ${path.relative(ROOT, file)}`] };
  return toOutcome(JSON.parse(readFileSync(file, 'utf8')));
}

// The suites run on the Node production runs, whatever Node `npm test` was started with.
onPinnedNode();
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
// The suites may add only their own packages to the host: the host project's test reads this.
const packagesBefore = path.join(RESULTS, 'host-packages-before.json');
recordPackageSet(packagesBefore);
ensureBrowser();

// The Go-built tools of the cluster suite, built meanwhile (tests/support/build-go-tools.mjs);
// their output goes to a file, not between the other suites' lines.
const goToolsLog = path.join(RESULTS, 'go-tools-build.log');
const goTools = spawn('nice', ['-n', '19', process.execPath, path.join(ROOT, 'tests', 'support', 'build-go-tools.mjs')], {
  cwd: ROOT,
  stdio: ['ignore', openSync(goToolsLog, 'w'), openSync(goToolsLog, 'a')],
});
const goToolsBuilt = once(goTools, 'exit');

const outcomes = [];
// The same commands a developer runs, so the suite and `npm run lint` cannot disagree.
outcomes.push(run('type check', 'npm', ['run', 'typecheck']));
outcomes.push(run('lint', 'npm', ['run', 'lint']));
const vitest = (/** @type {string} */ label, /** @type {string[]} */ projects, /** @type {string} */ report) =>
  run(
    label,
    bin('vitest'),
    [
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(RESULTS, report)}`,
      `--reporter=${path.join(ROOT, 'tests', 'support', 'file-durations-reporter.mjs')}`,
    ],
    { MERIDIAN_FILE_DURATIONS: path.join(RESULTS, report.replace(/\.json$/, '-durations.json')) },
  );
outcomes.push(
  vitest(
    'unit, set-up, integration, deployment and rollout tests (vitest: tests/unit, tests/set-up, tests/integration, tests/deployment, tests/rollout)',
    ['unit', 'set-up', 'integration', 'deployment', 'rollout'],
    'unit-report.json',
  ),
);
outcomes.push(run('end-to-end tests (playwright, Chromium)', bin('playwright'), ['test']));
console.log(`\n=== the cluster suite's Go-built tools (${path.relative(ROOT, goToolsLog)}) ===`);
const waitedFrom = Date.now();
const [goToolsExit] = await goToolsBuilt;
timings.push({ label: 'waiting for the Go builds', ms: Date.now() - waitedFrom });
console.log(goToolsExit === 0 ? 'built' : `the background build failed (exit ${goToolsExit}): the cluster suite's set-up builds them`);
// A run of its own: vitest starts every project's global set-up before any test, and the
// cluster's (images, a Kubernetes build on a new machine, the control plane) should
// neither delay the other suites nor compete with their load tests for the CPUs.
outcomes.push(
  vitest(
    'cluster tests (vitest: tests/cluster, its canary files, tests/cluster-script, its node files; a local Kubernetes)',
    ['cluster', 'cluster-canary', 'cluster-script', 'cluster-nodes'],
    'cluster-report.json',
  ),
);
// Last and alone: what every suite before it left on the host.
outcomes.push(
  run(
    'the host after the suites (vitest: tests/host)',
    bin('vitest'),
    ['run', '--project', 'host', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(RESULTS, 'host-report.json')}`],
    { MERIDIAN_HOST_PACKAGES_BEFORE: packagesBefore },
  ),
);

/** @param {import('vitest/reporters').JsonTestResults} report */
const fromVitest = (report) => vitestOutcome(report, ROOT);
const unit = readOutcome('unit-report.json', fromVitest);
const cluster = readOutcome('cluster-report.json', fromVitest);
const host = readOutcome('host-report.json', fromVitest);
const e2e = readOutcome('e2e-report.json', playwrightOutcome);
const durations = (/** @type {string} */ name) =>
  existsSync(path.join(RESULTS, name)) ? fileTimings(JSON.parse(readFileSync(path.join(RESULTS, name), 'utf8')), ROOT) : [];
const e2eReport = path.join(RESULTS, 'e2e-report.json');
const e2eFiles = existsSync(e2eReport) ? playwrightFileTimings(JSON.parse(readFileSync(e2eReport, 'utf8')), ROOT) : [];
const slowest = slowestFiles([durations('unit-report-durations.json'), durations('cluster-report-durations.json'), e2eFiles]);
const typeFailures = (outcomes[0] ? 0 : 1) + (outcomes[1] ? 0 : 1);
const passed = unit.passed + cluster.passed + host.passed + e2e.passed;
const failed = unit.failed + cluster.failed + host.failed + e2e.failed + typeFailures;
for (const failure of [...unit.failures, ...cluster.failures, ...host.failures, ...e2e.failures]) console.log(`FAILED ${failure}`);
console.log(
  `\nvitest ${unit.passed} passed, ${unit.failed} failed; cluster ${cluster.passed} passed, ${cluster.failed} failed; e2e ${e2e.passed} passed, ${e2e.failed} failed; host ${host.failed ? 'changed' : 'unchanged'}; type check and lint ${typeFailures ? 'failed' : 'ok'}`,
);
if (slowest.length) console.log(`slowest files: ${slowest.map(({ file, ms }) => `${file} ${minutesAndSeconds(ms)}`).join('; ')}`);
console.log(
  `timings: ${timings.map(({ label, ms }) => `${label} ${minutesAndSeconds(ms)}`).join('; ')}; all ${minutesAndSeconds(Date.now() - startedAt)}`,
);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(outcomes.every(Boolean) && failed === 0 ? 0 : 1);
