// A runbook's diagnosis run against the live cluster: its shell steps in bash (kubectl and
// helm of the pins on PATH, the game day's KUBECONFIG), its PromQL through the game day's
// Prometheus, and the dashboard panel it points at, evaluated by that Prometheus over the
// time the fault has been live.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { fillPlaceholders } from './runbooks.mjs';

const DASHBOARD_FILE = path.join(ROOT, 'helm', 'meridian', 'files', 'grafana-dashboard.json');
/** A runbook step is a quick look, not a wait. */
const STEP_TIMEOUT_MS = 60_000;
/**
 * `$__rate_interval` as the game day evaluates panels: three of its 5 s scrapes, enough for
 * rate() and a late scrape, so a fault shows sooner than Grafana's own choice (at least
 * four scrapes, 20 s) would show it.
 */
const RATE_INTERVAL = '15s';

/**
 * @typedef {{ query: (expr: string, time?: string) => Promise<{ metric: Record<string, string>, value: [number, string] }[]>, queryRange: (expr: string, startMs: number, endMs: number) => Promise<import('./faults.mjs').PanelSeries[]> }} PrometheusApi
 * @typedef {{ kind: string, text: string, output: string, exitCode: number }} StepResult
 */

/**
 * Runs `script` with bash (pipefail: a failing kubectl before a jq is not hidden).
 * @param {string} script @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ output: string, exitCode: number }>}
 */
function bash(script, env) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ output, exitCode: code ?? (signal ? 128 : 1) });
    });
  });
}

/**
 * Every step of `runbook`, placeholders filled in, in order.
 * @param {import('./runbooks.mjs').Runbook} runbook
 * @param {{ placeholders: import('./runbooks.mjs').Placeholders, env: NodeJS.ProcessEnv, prometheus: PrometheusApi }} options
 * @returns {Promise<StepResult[]>}
 */
export async function runDiagnosis(runbook, { placeholders, env, prometheus }) {
  /** @type {StepResult[]} */
  const results = [];
  for (const step of runbook.steps.map((each) => fillPlaceholders(each, placeholders))) {
    if (step.kind === 'sh') {
      results.push({ ...step, ...(await bash(step.text, env)) });
      continue;
    }
    try {
      const samples = await prometheus.query(step.text);
      const output = samples.map((sample) => `${JSON.stringify(sample.metric)} ${sample.value[1]}`).join('\n');
      results.push({ ...step, output, exitCode: 0 });
    } catch (error) {
      results.push({ ...step, output: String(error), exitCode: 1 });
    }
  }
  return results;
}

/**
 * The dashboard panel `row` › `title`, its targets' expressions as this release's dashboard
 * runs them (job and namespace fixed, every instance), evaluated over [startMs, endMs]: one
 * list of series per target.
 * @param {{ row: string, title: string }} panel
 * @param {{ job: string, namespace: string, prometheus: PrometheusApi, startMs: number, endMs: number }} options
 */
export async function evaluatePanel(panel, { job, namespace, prometheus, startMs, endMs }) {
  /** @type {{ panels: { type: string, title: string, targets?: { expr: string }[] }[] }} */
  const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8'));
  let row = '';
  const found = dashboard.panels.find((each) => {
    if (each.type === 'row') row = each.title;
    return each.type !== 'row' && row === panel.row && each.title === panel.title;
  });
  if (!found?.targets?.length) throw new Error(`gameday: the dashboard has no panel ${panel.row} › ${panel.title} with queries`);
  const expressions = found.targets.map((target) =>
    target.expr
      .replaceAll('$job', job)
      .replaceAll('$namespace', namespace)
      .replaceAll('$instance', '.*')
      .replaceAll('$__rate_interval', RATE_INTERVAL),
  );
  return {
    expressions,
    targets: await Promise.all(expressions.map((expr) => prometheus.queryRange(expr, startMs, endMs))),
  };
}
