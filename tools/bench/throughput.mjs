// Throughput with wrk: baseline static file vs the localized pages and the 404 page.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../lib/command.mjs';
import { heading, log, loud, round } from './util.mjs';

const REPORTER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-report.lua');
const CONNECTIONS = 10;
const THREADS = 2;

/**
 * @typedef {object} ThroughputTarget
 * @property {string} id
 * @property {string} label
 * @property {string} path
 * @property {Record<string, string>} [headers]
 * @property {number} expectStatus
 */

/** @type {ThroughputTarget} */
const BASELINE = { id: 'baseline', label: '/robots.txt (baseline)', path: '/robots.txt', expectStatus: 200 };

/** @type {readonly ThroughputTarget[]} */
export const TARGETS = [
  BASELINE,
  { id: 'root', label: '/ (Accept-Language: en)', path: '/', headers: { 'Accept-Language': 'en' }, expectStatus: 200 },
  { id: 'ja', label: '/ja', path: '/ja', expectStatus: 200 },
  { id: 'not-found', label: '/no-such-page (404)', path: '/no-such-page', expectStatus: 404 },
];

/**
 * What wrk-report.lua prints (latencies in microseconds), with the figures derived from it.
 * @typedef {object} WrkRun
 * @property {number} requests
 * @property {number} duration_us
 * @property {number} bytes
 * @property {number} non_2xx_3xx
 * @property {number} errors_connect
 * @property {number} errors_read
 * @property {number} errors_write
 * @property {number} errors_timeout
 * @property {number} latency_p50_us
 * @property {number} latency_p90_us
 * @property {number} latency_p99_us
 * @property {number} latency_max_us
 * @property {number} latency_mean_us
 * @property {number} rps
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} socketErrors
 */

/**
 * One wrk run against `url`; resolves to the parsed JSON of wrk-report.lua (which `script`, if given, must load).
 * @param {string} url
 * @param {{ durationS: number, headers?: Record<string, string>, threads?: number, script?: string, scriptArgs?: string[] }} options
 * @returns {Promise<WrkRun>}
 */
export async function runWrk(url, { durationS, headers = {}, threads = THREADS, script = REPORTER, scriptArgs = [] }) {
  const args = ['-t', String(threads), '-c', String(CONNECTIONS), '-d', `${durationS}s`, '--latency', '-s', script];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  if (scriptArgs.length) args.push('--', ...scriptArgs);
  const { stdout } = await run('wrk', args);
  const line = stdout.split('\n').find((text) => text.startsWith('BENCH_JSON '));
  if (!line) throw new Error(`wrk printed no BENCH_JSON line for ${url}:\n${stdout}`);
  const raw = JSON.parse(line.slice('BENCH_JSON '.length));
  const seconds = raw.duration_us / 1e6;
  return {
    ...raw,
    rps: raw.requests / seconds,
    p50Ms: raw.latency_p50_us / 1000,
    p99Ms: raw.latency_p99_us / 1000,
    socketErrors: raw.errors_connect + raw.errors_read + raw.errors_write + raw.errors_timeout,
  };
}

/**
 * One request per target: the status wrk will see (a redirect would be measured as a success).
 * @param {string} baseUrl
 * @returns {Promise<Map<ThroughputTarget, number>>} the status of each target
 */
async function preflight(baseUrl) {
  const statuses = new Map();
  for (const target of TARGETS) {
    const response = await fetch(baseUrl + target.path, { headers: target.headers ?? {}, redirect: 'manual' });
    await response.arrayBuffer();
    statuses.set(target, response.status);
    const location = response.headers.get('location');
    const note =
      (response.status === target.expectStatus ? 'as expected' : `EXPECTED ${target.expectStatus}`) +
      (location ? `, Location: ${location}` : '');
    log(`  ${target.label.padEnd(26)} HTTP ${response.status} (${note})`);
    if (response.status !== target.expectStatus) {
      loud(`${target.path} answered ${response.status}, not ${target.expectStatus}: its numbers do not measure the page`);
    }
  }
  return statuses;
}

/** @param {WrkRun} result */
function formatRun(result) {
  return (
    `${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50Ms.toFixed(2).padStart(7)} ms  ` +
    `p99 ${result.p99Ms.toFixed(2).padStart(7)} ms  non-2xx/3xx ${result.non_2xx_3xx}  socket errors ${result.socketErrors}`
  );
}

/**
 * Warms each target, then runs the round (baseline, /, /ja, 404) `rounds` times so
 * that machine noise is shared, and keeps the run with the most req/s per target.
 * @param {string} baseUrl
 * @param {{ durationS: number, warmupS: number, rounds: number }} options
 */
export async function measureThroughput(baseUrl, { durationS, warmupS, rounds }) {
  heading('Throughput (wrk)');
  log(
    `wrk: ${THREADS} threads, ${CONNECTIONS} connections, ${durationS} s per target (--duration-s), ` +
      `${rounds} alternating rounds, ${warmupS} s warm-up per target; the best round counts.`,
  );
  const statuses = await preflight(baseUrl);

  for (const target of TARGETS) await runWrk(baseUrl + target.path, { durationS: warmupS, headers: target.headers });

  /** @type {Map<ThroughputTarget, WrkRun[]>} */
  const runs = new Map(TARGETS.map((target) => [target, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const target of TARGETS) {
      const result = await runWrk(baseUrl + target.path, { durationS, headers: target.headers });
      entryOf(runs, target).push(result);
      log(`  round ${round}  ${target.label.padEnd(26)} ${formatRun(result)}`);
    }
  }

  const best = (/** @type {ThroughputTarget} */ target) => entryOf(runs, target).reduce((a, b) => (b.rps > a.rps ? b : a));
  const baselineRps = best(BASELINE).rps;
  const results = TARGETS.map((target) => {
    const run = best(target);
    return {
      id: target.id,
      label: target.label,
      path: target.path,
      status: statuses.get(target),
      expectStatus: target.expectStatus,
      rps: round(run.rps, 0),
      p50Ms: round(run.p50Ms, 2),
      p99Ms: round(run.p99Ms, 2),
      ratio: round(run.rps / baselineRps, 2),
      requests: run.requests,
      non2xx3xx: run.non_2xx_3xx,
      socketErrors: run.socketErrors,
      rounds: entryOf(runs, target).map((r) => ({ rps: round(r.rps, 0), p50Ms: round(r.p50Ms, 2), p99Ms: round(r.p99Ms, 2) })),
    };
  });
  log('');
  log('  best of rounds:');
  for (const r of results) {
    log(
      `  ${r.label.padEnd(26)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  ` +
        `${r.ratio}x baseline  non-2xx/3xx ${r.non2xx3xx}`,
    );
  }
  return { durationS, warmupS, rounds, connections: CONNECTIONS, threads: THREADS, targets: results };
}

/**
 * The runs of a target (every target has its entry from the start).
 * @param {Map<ThroughputTarget, WrkRun[]>} runs
 * @param {ThroughputTarget} target
 */
function entryOf(runs, target) {
  const entry = runs.get(target);
  if (!entry) throw new Error(`throughput: no runs for ${target.id}`);
  return entry;
}
