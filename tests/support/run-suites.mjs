// `npm test`: every suite, on a fresh machine too. Installs what the suites drive
// (Chromium, a running Docker engine), type-checks and lints, then runs two lanes side by
// side: the unit tests, the integration tests (real server processes), the deployment
// tests (the Docker image and compose stack, the Helm chart with the real helm) and the
// end-to-end tests in Chromium, one after the other; beside them, the chart on a local
// Kubernetes cluster built from its Go modules (built in the background from the start).
// Last the host check, and every failure named, each suite's time and one line of totals.
// The host suites share one production build; the deployment tests build the Docker image.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { ensureBrowser } from '../../tools/debian-packages.mjs';
import { ensureDockerEngine } from '../../tools/docker-engine.mjs';
import { onPinnedNode } from '../../tools/node-runtime.mjs';
import { recordPackageSet } from './host-packages.mjs';
import { fileTimings, minutesAndSeconds, playwrightFileTimings, playwrightOutcome, slowestFiles, vitestOutcome } from './test-reports.mjs';

// Not test-results/: Playwright empties that folder when it starts.
const RESULTS = path.join(ROOT, 'test-reports');
const bin = (/** @type {string} */ name) => path.join(ROOT, 'node_modules', '.bin', name);

/**
 * Runs a suite to its end without blocking the other lane; its output goes to this
 * process's (or to `logFile`), its wall time to the summary.
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, logFile?: string }} [options] env is added to this process's
 */
async function run(label, command, args, { env = {}, logFile } = {}) {
  if (!logFile) console.log(`\n=== ${label} ===`);
  const began = Date.now();
  const output = logFile ? openSync(logFile, 'w') : 'inherit';
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', output, output],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  const [status] = await once(child, 'exit');
  timings.push({ label: label.replace(/ \(.*$/, ''), ms: Date.now() - began });
  return status === 0;
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
// Both lanes use it: started here, neither stops it under the other.
const dockerEngine = await ensureDockerEngine();

// The Go-built tools of the cluster suite, built meanwhile (tests/support/build-go-tools.mjs);
// their output goes to a file, not between the other suites' lines.
const goToolsLog = path.join(RESULTS, 'go-tools-build.log');
const goTools = spawn('nice', ['-n', '19', process.execPath, path.join(ROOT, 'tests', 'support', 'build-go-tools.mjs')], {
  cwd: ROOT,
  stdio: ['ignore', openSync(goToolsLog, 'w'), openSync(goToolsLog, 'a')],
});
const goToolsBuilt = once(goTools, 'exit');

// The same commands a developer runs, so the suite and `npm run lint` cannot disagree.
const typeChecked = await run('type check', 'npm', ['run', 'typecheck']);
const linted = await run('lint', 'npm', ['run', 'lint']);
/**
 * @param {string} label @param {string[]} projects @param {string} report
 * @param {string} [logFile]
 */
const vitest = (label, projects, report, logFile) =>
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
    { env: { MERIDIAN_FILE_DURATIONS: path.join(RESULTS, report.replace(/\.json$/, '-durations.json')) }, logFile },
  );
const CLUSTER_LABEL = 'cluster tests (vitest: tests/cluster, its canary files, tests/cluster-script, its node files; a local Kubernetes)';
const clusterLog = path.join(RESULTS, 'cluster-suite.log');
// Two lanes side by side: the cluster suite, once the Go-built tools are there, mostly waits
// on Kubernetes (rollouts, analyses, alerts' `for`), so the host suites run meanwhile instead
// of before it. Its output goes to a file, printed whole once both lanes are done. It is a
// vitest run of its own: vitest starts every project's global set-up before any test.
const clusterLane = (async () => {
  const waitedFrom = Date.now();
  const [goToolsExit] = await goToolsBuilt;
  timings.push({ label: 'waiting for the Go builds', ms: Date.now() - waitedFrom });
  const built = goToolsExit === 0 ? 'built' : `the background build failed (exit ${goToolsExit}): the cluster suite's set-up builds them`;
  return {
    built,
    passed: await vitest(
      CLUSTER_LABEL,
      ['cluster', 'cluster-canary', 'cluster-script', 'cluster-nodes'],
      'cluster-report.json',
      clusterLog,
    ),
  };
})();
const hostLane = [
  await vitest(
    'unit, set-up, integration, deployment and rollout tests (vitest: tests/unit, tests/set-up, tests/integration, tests/deployment, tests/rollout)',
    ['unit', 'set-up', 'integration', 'deployment', 'rollout'],
    'unit-report.json',
  ),
  await run('end-to-end tests (playwright, Chromium)', bin('playwright'), ['test']),
];
const clusterRun = await clusterLane;
console.log(`\n=== ${CLUSTER_LABEL}, run beside the suites above (${path.relative(ROOT, clusterLog)}) ===`);
console.log(`the Go-built tools (${path.relative(ROOT, goToolsLog)}): ${clusterRun.built}`);
process.stdout.write(readFileSync(clusterLog, 'utf8'));
const outcomes = [typeChecked, linted, ...hostLane, clusterRun.passed];
await dockerEngine.stop();
// Last and alone: what every suite before it left on the host.
outcomes.push(
  await run(
    'the host after the suites (vitest: tests/host)',
    bin('vitest'),
    ['run', '--project', 'host', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(RESULTS, 'host-report.json')}`],
    { env: { MERIDIAN_HOST_PACKAGES_BEFORE: packagesBefore } },
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
