// The memory row: our entry (defaults: access log on) under three minutes of mixed
// load from wrk (1 thread, 10 connections; mixed-load.lua: 60 % page loads, 40 % random
// not-found paths, half of all requests compressed). The page paths are the build's: `/`
// and every page route it prerendered (`/en`, `/ja`, `/zh-CN`; `/en` answers its 308 to
// `/`, as it does for a visitor). Once a second: resident memory (VmRSS) and, from the
// metrics port, V8's heap in use and reserved and the memory held outside the heap
// (buffers). Figures are read after a 30 s settling period; the peak (VmHWM) covers the
// whole run. Every answer's status comes from the server's own request counter (what the
// load added to it), so the load generator does no per-response work; the server's CPU
// share over the run tells whether the server, not wrk, was the limit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { heading, log, loud, round } from './util.mjs';
import { cpuMs, rssMiB, STANDALONE, startOurs } from './bench-servers.mjs';
import { peakRssMiB } from './ceiling.mjs';
import { runWrk } from './throughput.mjs';

export const MIXED_LOAD_TARGETS = { rssMiB: 180, heapSwingMiB: 58 };
const SCRIPT = path.join(import.meta.dirname, 'mixed-load.lua');
const SETTLE_S = 30;
const MiB = 1024 * 1024;

const HEAP_SERIES = {
  heapUsedMiB: 'nodejs_heap_size_used_bytes',
  heapTotalMiB: 'nodejs_heap_size_total_bytes',
  externalMiB: 'nodejs_external_memory_bytes',
};

/**
 * `/` and the page routes the build prerendered (as in src/server/serving/next-compat/prerendered-pages/prerendered-pages.ts),
 * by their paths: the default locale's routes answer a redirect to `/`, which is part of the mix.
 * @param {{ routes: Record<string, { routeType?: string, initialStatus?: number }> }} prerenderManifest
 */
export function pagePathsOf(prerenderManifest) {
  const routes = Object.entries(prerenderManifest.routes)
    .filter(([route, entry]) => entry.routeType === 'page' && (entry.initialStatus ?? 200) === 200 && !route.startsWith('/_'))
    .map(([route]) => route);
  return [...new Set(['/', ...routes.sort()])];
}

/**
 * What each page path answers (so a redirect or a 404 in the "pages" share is seen, not guessed).
 * @param {string} baseUrl
 * @param {string[]} paths
 */
async function preflight(baseUrl, paths) {
  /** @type {Record<string, string>} */
  const answers = {};
  for (const pagePath of paths) {
    const response = await fetch(baseUrl + pagePath, { redirect: 'manual' });
    await response.arrayBuffer();
    const location = response.headers.get('location');
    answers[pagePath] = location ? `${response.status} → ${new URL(location, baseUrl).pathname}` : String(response.status);
  }
  return answers;
}

/** @param {string} url */
export async function metricsText(url) {
  const response = await fetch(url);
  return response.text();
}

/**
 * @param {string} text
 * @param {string} name
 */
function valueOf(text, name) {
  const match = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * Requests answered so far, by status code, from http_server_request_duration_seconds_count.
 * @param {string} text
 */
export function statusesOf(text) {
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const [, code = '', count] of text.matchAll(
    /^http_server_request_duration_seconds_count\{[^}]*status_code="(\d+|other)"[^}]*\} (\d+)/gm,
  )) {
    statuses[code] = (statuses[code] ?? 0) + Number(count);
  }
  return statuses;
}

/**
 * What a load added to the server's answers by status, from two readings of statusesOf.
 * @param {Record<string, number>} before
 * @param {Record<string, number>} after
 */
export function statusesAdded(before, after) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([code, count]) => /** @type {const} */ ([code, count - (before[code] ?? 0)]))
      .filter(([, count]) => count > 0),
  );
}

const stats = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: round(sorted[0], 1),
    median: round(sorted[Math.floor(sorted.length / 2)], 1),
    max: round(sorted[sorted.length - 1], 1),
  };
};

/** @typedef {{ s: number, rssMiB: number, heapUsedMiB: number, heapTotalMiB: number, externalMiB: number }} MemorySample */

/** @param {{ durationS: number }} options */
export async function measureMixedLoad({ durationS }) {
  heading(`Memory through ${durationS} s of mixed load (wrk, 1 thread, 10 connections; 60 % pages, 40 % random 404s, half compressed)`);
  const pages = pagePathsOf(JSON.parse(readFileSync(path.join(STANDALONE, '.next', 'prerender-manifest.json'), 'utf8')));
  const server = await startOurs({ name: 'ours (access log on)' });
  const pageAnswers = await preflight(server.url, pages);
  log(
    `  pages (60 %): ${Object.entries(pageAnswers)
      .map(([page, answer]) => `${page} ${answer}`)
      .join(', ')}`,
  );
  // The readiness polls of start-up (503s) are counted too: only what the load added counts.
  const before = statusesOf(await metricsText(server.metricsUrl));
  const cpuBefore = cpuMs(server.pid);
  /** @type {MemorySample[]} */
  const samples = [];
  const startedAt = Date.now();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const text = await metricsText(server.metricsUrl);
      const heap = (/** @type {keyof typeof HEAP_SERIES} */ key) => round((valueOf(text, HEAP_SERIES[key]) ?? NaN) / MiB, 1);
      samples.push({
        s: round((Date.now() - startedAt) / 1000, 1),
        rssMiB: round(rssMiB(server.pid), 1),
        heapUsedMiB: heap('heapUsedMiB'),
        heapTotalMiB: heap('heapTotalMiB'),
        externalMiB: heap('externalMiB'),
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  try {
    const load = await runWrk(`${server.url}/`, { durationS, threads: 1, script: SCRIPT, scriptArgs: [pages.join(',')] });
    const cpuShare = (cpuMs(server.pid) - cpuBefore) / (load.duration_us / 1000);
    sampling = false;
    await sampler;
    const statuses = statusesAdded(before, statusesOf(await metricsText(server.metricsUrl)));
    const settled = samples.filter((sample) => sample.s >= Math.min(SETTLE_S, durationS / 2));
    const heapUsed = stats(settled.map((sample) => sample.heapUsedMiB));
    const result = {
      durationS,
      pages: pageAnswers,
      requests: load.requests,
      rps: round(load.rps, 0),
      socketErrors: load.socketErrors,
      serverCpuShare: round(cpuShare, 2),
      statuses,
      serverErrors: Object.entries(statuses)
        .filter(([code]) => code.startsWith('5'))
        .reduce((sum, [, count]) => sum + count, 0),
      rssMiB: stats(settled.map((sample) => sample.rssMiB)),
      peakRssMiB: peakRssMiB(server.pid),
      heapUsedMiB: heapUsed,
      heapSwingMiB: round((heapUsed.max ?? NaN) - (heapUsed.min ?? NaN), 1),
      heapTotalMiB: stats(settled.map((sample) => sample.heapTotalMiB)),
      externalMiB: stats(settled.map((sample) => sample.externalMiB)),
      samples,
      targets: MIXED_LOAD_TARGETS,
    };
    log(
      `  ${result.requests} requests, ${result.rps} req/s; statuses ${JSON.stringify(statuses)}; ` +
        `server CPU ${Math.round(cpuShare * 100)} % of one core (near 100 %: the server, not wrk, is the limit)`,
    );
    if (result.serverErrors > 0) loud(`${result.serverErrors} answers were 5xx under mixed load`);
    if (result.socketErrors > 0) loud(`${result.socketErrors} socket errors (connect, read, write, timeout) under mixed load`);
    log(
      `  after ${SETTLE_S} s: RSS median ${result.rssMiB.median} MiB, max ${result.rssMiB.max} MiB; peak (VmHWM) ${result.peakRssMiB} MiB`,
    );
    log(
      `  V8 heap in use ${heapUsed.min}–${heapUsed.max} MiB (swing ${result.heapSwingMiB} MiB), reserved median ${result.heapTotalMiB.median} MiB; ` +
        `outside the heap median ${result.externalMiB.median} MiB`,
    );
    return result;
  } finally {
    sampling = false;
    await server.stop();
  }
}
