// The cost of our Node entry (src/server/main.ts) against Next's own standalone server.js
// serving the same build, with wrk: (a) Next's server.js, (b) ours with metrics and info
// logging, (c) ours with tracing too, exporting to a local OTLP/HTTP receiver.
//
// All three servers run at once and the two idle ones wait while one is measured: a start
// per run would be 18 starts of Next, and an idle server costs almost nothing (ours samples
// the event-loop delay for its metrics, and the tracing one has a 5 s export timer). Runs
// alternate per path, Next, ours, ours+tracing, then ours+tracing, ours, Next, so that
// drift on this shared machine falls on every variant; the better run of each counts.
// The server's CPU time per request (from /proc) is reported too: other tenants of the
// machine move req/s a lot more than they move it.
import { heading, log, loud, round } from './util.mjs';
import { cpuMs, startNext, startOtlpReceiver, startOurs } from './bench-servers.mjs';
import { runWrk } from './throughput.mjs';

export const OVERHEAD_TARGETS = { throughput: 0.95, p99: 1.1, tracingThroughput: 0.85 };

/** @typedef {'next' | 'ours' | 'tracing'} VariantId */
/** @typedef {import('./throughput.mjs').WrkRun & { cpuMs: number, cpuMsPerRequest: number }} MeasuredRun */

/** @type {readonly { id: VariantId, label: string }[]} */
export const VARIANTS = [
  { id: 'next', label: 'Next server.js' },
  { id: 'ours', label: 'ours' },
  { id: 'tracing', label: 'ours+tracing' },
];

/**
 * `fromMemory`: our entry answers these without Next (prerendered HTML, the
 * not-found template). `reference`: measured for the overhead of our pipeline
 * around a page Next renders in both servers, not one of the targets.
 */
/** @type {readonly { id: string, label: string, path: string, headers?: Record<string, string>, expectStatus: number, fromMemory: boolean, reference?: boolean }[]} */
const PATHS = [
  { id: 'root', label: '/ (Accept-Language: en)', path: '/', headers: { 'Accept-Language': 'en' }, expectStatus: 200, fromMemory: true },
  { id: 'ja', label: '/ja', path: '/ja', expectStatus: 200, fromMemory: true },
  { id: 'not-found', label: '/no-such-page (404)', path: '/no-such-page', expectStatus: 404, fromMemory: true },
  {
    id: 'rendered-not-found',
    label: '/no-such-page?q (404)',
    path: '/no-such-page?q=1',
    expectStatus: 404,
    fromMemory: false,
    reference: true,
  },
];

/**
 * One request per server and path: a wrong status (a redirect, say) would be measured as if it were the page.
 * @param {Record<VariantId, import('./bench-servers.mjs').BenchServer>} servers
 */
async function preflight(servers) {
  /** @type {Record<string, Partial<Record<VariantId, number>>>} */
  const statuses = {};
  for (const target of PATHS) {
    /** @type {Partial<Record<VariantId, number>>} */
    const seen = {};
    for (const variant of VARIANTS) {
      const response = await fetch(servers[variant.id].url + target.path, { headers: target.headers ?? {}, redirect: 'manual' });
      await response.arrayBuffer();
      seen[variant.id] = response.status;
    }
    statuses[target.id] = seen;
    const ok = VARIANTS.every((v) => seen[v.id] === target.expectStatus);
    log(
      `  ${target.label.padEnd(26)} ${VARIANTS.map((v) => `${v.label} HTTP ${seen[v.id]}`).join(', ')}` +
        (ok ? ' (as expected)' : ` EXPECTED ${target.expectStatus}`),
    );
    if (!ok) loud(`${target.path} does not answer ${target.expectStatus} on every server: its ratios do not compare the same page`);
  }
  return statuses;
}

const formatRun = (/** @type {MeasuredRun} */ r) =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p99 ${r.p99Ms.toFixed(2).padStart(7)} ms  ` +
  `CPU ${r.cpuMsPerRequest.toFixed(3)} ms/req  non-2xx/3xx ${r.non_2xx_3xx}  socket errors ${r.socketErrors}`;

/**
 * The better run per metric: the most req/s, the lowest p99 (the runs themselves are kept too).
 * With the mirrored order, a steady drift favours the variant at both ends (Next) when the best
 * run is taken; the mean of a variant's two runs cancels such a drift, so it is reported beside.
 * @param {MeasuredRun[]} runs
 */
function best(runs) {
  return {
    rps: round(Math.max(...runs.map((r) => r.rps)), 0),
    meanRps: round(runs.reduce((t, r) => t + r.rps, 0) / runs.length, 0),
    p99Ms: round(Math.min(...runs.map((r) => r.p99Ms)), 2),
    p50Ms: round(Math.min(...runs.map((r) => r.p50Ms)), 2),
    cpuMsPerRequest: round(runs.reduce((t, r) => t + r.cpuMs, 0) / runs.reduce((t, r) => t + r.requests, 0), 3),
    requests: runs.reduce((total, r) => total + r.requests, 0),
    non2xx3xx: runs.reduce((total, r) => total + r.non_2xx_3xx, 0),
    socketErrors: runs.reduce((total, r) => total + r.socketErrors, 0),
    runs: runs.map((r) => ({ rps: round(r.rps, 0), p50Ms: round(r.p50Ms, 2), p99Ms: round(r.p99Ms, 2), cpuMs: round(r.cpuMs, 0) })),
  };
}

/** @param {{ durationS: number, warmupS: number }} options */
export async function measureServerOverhead({ durationS, warmupS }) {
  heading("Server overhead: our entry vs Next's standalone server.js (wrk)");
  log(
    `wrk: 2 threads, 10 connections, ${durationS} s per run (--duration-s), ${warmupS} s warm-up per server and path; ` +
      'order Next, ours, ours+tracing, then reversed; the better run of each counts (most req/s, lowest p99).',
  );
  log("  Our entry answers /, /ja (prerendered HTML) and /no-such-page (the not-found template) from memory; Next's");
  log('  server.js renders them, so their ratios are far above 1. /no-such-page?q=1 is rendered by Next in both (a query');
  log('  skips the template): the cost of our pipeline around a render, for reference.');
  const receiver = await startOtlpReceiver();
  /** @type {Partial<Record<VariantId, import('./bench-servers.mjs').BenchServer>>} */
  const started = {};
  try {
    started.next = await startNext();
    started.ours = await startOurs();
    started.tracing = await startOurs({ name: 'ours+tracing', otlpEndpoint: receiver.endpoint });
    const servers = { next: started.next, ours: started.ours, tracing: started.tracing };
    log(
      `  Next ${servers.next.url} (pid ${servers.next.pid}), ours ${servers.ours.url} (pid ${servers.ours.pid}), ` +
        `ours+tracing ${servers.tracing.url} (pid ${servers.tracing.pid}), OTLP receiver ${receiver.endpoint}`,
    );
    const statuses = await preflight(servers);

    const order = [...VARIANTS, ...[...VARIANTS].reverse()];
    const paths = [];
    let tracingExports = 0;
    for (const target of PATHS) {
      for (const variant of VARIANTS) {
        await runWrk(servers[variant.id].url + target.path, { durationS: warmupS, headers: target.headers });
      }
      /** @type {Record<VariantId, MeasuredRun[]>} */
      const runs = { next: [], ours: [], tracing: [] };
      for (const variant of order) {
        const exportsBefore = receiver.stats.exports;
        const cpuBefore = cpuMs(servers[variant.id].pid);
        const wrk = await runWrk(servers[variant.id].url + target.path, { durationS, headers: target.headers });
        const spentMs = cpuMs(servers[variant.id].pid) - cpuBefore;
        const result = { ...wrk, cpuMs: spentMs, cpuMsPerRequest: spentMs / wrk.requests };
        runs[variant.id].push(result);
        const exported = receiver.stats.exports - exportsBefore;
        if (variant.id === 'tracing') tracingExports += exported;
        log(
          `  ${target.label.padEnd(26)} ${variant.label.padEnd(15)} ${formatRun(result)}` +
            (variant.id === 'tracing' ? `  OTLP exports ${exported}` : ''),
        );
      }
      const byVariant = { next: best(runs.next), ours: best(runs.ours), tracing: best(runs.tracing) };
      const { next, ours, tracing } = byVariant;
      paths.push({
        id: target.id,
        label: target.label,
        path: target.path,
        expectStatus: target.expectStatus,
        statuses: statuses[target.id] ?? {},
        oursFromMemory: target.fromMemory,
        reference: target.reference === true,
        ...byVariant,
        ratios: {
          throughput: round(ours.rps / next.rps, 2),
          p99: round(ours.p99Ms / next.p99Ms, 2),
          tracingThroughput: round(tracing.rps / next.rps, 2),
          throughputOfMeans: round(ours.meanRps / next.meanRps, 2),
          tracingThroughputOfMeans: round(tracing.meanRps / next.meanRps, 2),
          cpuPerRequest: round(ours.cpuMsPerRequest / next.cpuMsPerRequest, 2),
          tracingCpuPerRequest: round(tracing.cpuMsPerRequest / next.cpuMsPerRequest, 2),
        },
      });
    }
    log('');
    log('  better runs:');
    for (const p of paths) {
      log(
        `  ${p.label.padEnd(26)} req/s Next ${p.next.rps}, ours ${p.ours.rps}, ours+tracing ${p.tracing.rps}; ` +
          `p99 ms ${p.next.p99Ms} / ${p.ours.p99Ms} / ${p.tracing.p99Ms}; ours/Next ${p.ratios.throughput}x req/s, ` +
          `${p.ratios.p99}x p99; ours+tracing/Next ${p.ratios.tracingThroughput}x req/s; ` +
          `means of runs: ours/Next ${p.ratios.throughputOfMeans}x, ours+tracing/Next ${p.ratios.tracingThroughputOfMeans}x; ` +
          `CPU ms/req ${p.next.cpuMsPerRequest} / ${p.ours.cpuMsPerRequest} / ${p.tracing.cpuMsPerRequest}`,
      );
    }
    log(
      `  OTLP receiver: ${receiver.stats.exports} exports, ${(receiver.stats.bytes / 1048576).toFixed(1)} MiB in all ` +
        `(${tracingExports} during the measured ours+tracing runs)`,
    );
    if (tracingExports === 0) loud('The tracing server exported nothing during its runs: ours+tracing did not measure tracing');
    return {
      durationS,
      warmupS,
      connections: 10,
      threads: 2,
      targets: OVERHEAD_TARGETS,
      paths,
      otlp: { ...receiver.stats, exportsDuringTracingRuns: tracingExports },
    };
  } finally {
    for (const server of Object.values(started)) await server.stop();
    await receiver.close();
  }
}
