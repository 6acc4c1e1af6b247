// What the most expensive request a visitor can send costs, against a page, in one run:
// each kind of request below, by wrk (1 thread, 10 connections) for --duration-s after
// --warmup-s in --cost-rounds alternating rounds (default 2), each against a fresh
// server (our entry, access log on: what Next's renders leave in the heap would slow the
// kinds measured after them); its cost is the page's req/s over its own (≤ 2×). Then a flood of the
// most expensive kind for --flood-s (default 180) against a fresh server: its peak
// resident memory (VmHWM, ≤ 180 MiB), its RSS once a second and its 5xx answers (0),
// counted by the server's own request counter.
import { createRequire } from 'node:module';
import path from 'node:path';
import { heading, log, loud, median, round } from './util.mjs';
import { rssMiB, STANDALONE, startOurs } from './bench-servers.mjs';
import { peakRssMiB } from './ceiling.mjs';
import { metricsText, statusesAdded, statusesOf } from './mixed-load.mjs';
import { runWrk } from './throughput.mjs';

export const REQUEST_COST_TARGETS = { costOfPage: 2, floodPeakRssMiB: 180 };
const SCRIPT = path.join(import.meta.dirname, 'request-cost.lua');

/**
 * One kind of request: its path ("{hex}" is new random hex in each request) and headers.
 * @typedef {{ id: string, label: string, path: string, headers?: Record<string, string> }} RequestKind
 */

/** @typedef {{ prefetch?: string, segment?: string, tree?: string }} RouterHeaders */

/**
 * The `_rsc` hash a browser sends with these router headers, by Next's own function in the build.
 * @param {RouterHeaders} router
 * @returns {Promise<string>}
 */
async function cacheBustingHash(router) {
  const requireFromBuild = createRequire(path.join(STANDALONE, 'server.js'));
  const { computeCacheBustingSearchParam } =
    /** @type {{ computeCacheBustingSearchParam: (...headers: (string | undefined)[]) => Promise<string> }} */ (
      requireFromBuild('next/dist/shared/lib/router/utils/cache-busting-search-param.js')
    );
  return computeCacheBustingSearchParam(router.prefetch, router.segment, router.tree, undefined);
}

/**
 * A router request's headers as the browser sends them.
 * @param {RouterHeaders} router
 * @returns {Record<string, string>}
 */
function routerHeaders(router) {
  return {
    RSC: '1',
    ...(router.prefetch ? { 'Next-Router-Prefetch': router.prefetch } : {}),
    ...(router.segment ? { 'Next-Router-Segment-Prefetch': router.segment } : {}),
    ...(router.tree ? { 'Next-Router-State-Tree': router.tree } : {}),
  };
}

/**
 * Every kind of request the stage measures, the page (`/ja`) first.
 * @returns {Promise<RequestKind[]>}
 */
export async function requestKinds() {
  // The state a tab on /ja sends (as Chromium sent it), which Next's parser reads.
  const tree = encodeURIComponent(
    JSON.stringify([
      '',
      {
        children: [
          ['locale', 'ja', 'd', null],
          { children: ['(default)', { children: ['__PAGE__', {}, null, null, 512] }, null, null, 512] },
          null,
          null,
          66064,
        ],
      },
      null,
      null,
      131600,
    ]),
  );
  const navigation = { tree };
  const prefetch = { prefetch: '1', segment: '/_tree' };
  const query = `q=${'x'.repeat(4096)}`;
  return [
    { id: 'page', label: 'page /ja', path: '/ja' },
    { id: 'not-found', label: '404 /{hex}', path: '/{hex}' },
    { id: 'not-found-ja', label: '404 /ja/{hex}', path: '/ja/{hex}' },
    { id: 'not-found-zh', label: '404 /zh-CN/{hex}', path: '/zh-CN/{hex}' },
    { id: 'api', label: '404 /api/{hex}', path: '/api/{hex}' },
    { id: 'next', label: '404 /_next/{hex}', path: '/_next/{hex}' },
    { id: 'static', label: '404 /_next/static/{hex}.js', path: '/_next/static/chunks/{hex}.js' },
    { id: 'file', label: '404 /{hex}.php', path: '/{hex}.php' },
    { id: 'builds', label: '404 /builds/meta/{hex}.json', path: '/builds/meta/{hex}.json' },
    {
      id: 'navigation',
      label: '_rsc navigation /zh-CN',
      path: `/zh-CN?_rsc=${await cacheBustingHash(navigation)}`,
      headers: routerHeaders(navigation),
    },
    {
      id: 'prefetch',
      label: 'segment prefetch /zh-CN',
      path: `/zh-CN?_rsc=${await cacheBustingHash(prefetch)}`,
      headers: routerHeaders(prefetch),
    },
    {
      id: 'navigation-not-found',
      label: '_rsc navigation 404 /ja/{hex}',
      path: `/ja/{hex}?_rsc=${await cacheBustingHash(navigation)}`,
      headers: routerHeaders(navigation),
    },
    { id: 'image', label: '/_next/image?url=/{hex}.png', path: '/_next/image?url=%2F{hex}.png&w=640&q=75' },
    { id: 'segments', label: 'a path of 200 segments', path: `/${'a/'.repeat(199)}{hex}` },
    { id: 'query-page', label: '/ja with a 4 KiB query', path: `/ja?${query}` },
    { id: 'query-not-found', label: '404 /{hex} with a 4 KiB query', path: `/{hex}?${query}` },
  ];
}

/**
 * Each kind's median req/s and its cost against the page (the page's req/s over its own),
 * the most expensive first; `page` is the id of the page's kind.
 * @param {RequestKind[]} kinds
 * @param {Record<string, number[]>} rpsByKind req/s of each round, by kind id
 * @param {string} [page]
 */
export function costTable(kinds, rpsByKind, page = 'page') {
  const pageRps = median(rpsByKind[page] ?? []);
  const rows = kinds.map((kind) => {
    const rps = rpsByKind[kind.id] ?? [];
    const medianRps = median(rps);
    return {
      id: kind.id,
      label: kind.label,
      medianRps: round(medianRps, 0),
      rps: rps.map((value) => round(value, 0)),
      costOfPage: medianRps > 0 ? round(pageRps / medianRps, 2) : null,
    };
  });
  rows.sort((a, b) => (b.costOfPage ?? Infinity) - (a.costOfPage ?? Infinity));
  return { pageRps: round(pageRps, 0), rows, worst: rows[0] ?? null };
}

/**
 * The status of one request of each kind, so a 5xx or a wrong answer is seen, not guessed.
 * @param {string} baseUrl
 * @param {RequestKind[]} kinds
 */
async function preflight(baseUrl, kinds) {
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const kind of kinds) {
    const response = await fetch(baseUrl + kind.path.replaceAll('{hex}', '0123456789abcdef'), {
      headers: kind.headers,
      redirect: 'manual',
    });
    await response.arrayBuffer();
    statuses[kind.id] = response.status;
  }
  return statuses;
}

/**
 * @param {{ durationS: number, warmupS: number, rounds: number, floodS: number }} options
 */
export async function measureRequestCost({ durationS, warmupS, rounds, floodS }) {
  heading(`What each kind of request costs against a page (wrk, 1 thread, 10 connections, ${rounds} alternating rounds)`);
  const kinds = await requestKinds();
  /** @type {Record<string, number[]>} */
  const rpsByKind = {};
  const probe = await startOurs({ name: 'ours (access log on)' });
  /** @type {Record<string, number>} */
  let statuses = {};
  try {
    statuses = await preflight(probe.url, kinds);
  } finally {
    await probe.stop();
  }
  log(`  statuses: ${kinds.map((kind) => `${kind.id} ${statuses[kind.id]}`).join(', ')}`);
  for (let r = 1; r <= rounds; r += 1) {
    for (const kind of r % 2 ? kinds : [...kinds].reverse()) {
      // A fresh server for each: what Next's renders leave in the heap slows every later request.
      const server = await startOurs({ name: 'ours (access log on)' });
      try {
        const wrkOptions = { threads: 1, headers: kind.headers, script: SCRIPT, scriptArgs: [kind.path] };
        await runWrk(server.url, { ...wrkOptions, durationS: warmupS });
        const run = await runWrk(server.url, { ...wrkOptions, durationS });
        (rpsByKind[kind.id] ??= []).push(run.rps);
        log(`  round ${r}  ${kind.label.padEnd(34)} ${run.rps.toFixed(0).padStart(7)} req/s  p99 ${run.p99Ms.toFixed(2)} ms`);
      } finally {
        await server.stop();
      }
    }
  }
  const table = costTable(kinds, rpsByKind);
  log(
    `  page ${table.pageRps} req/s; most expensive: ${table.worst?.label} at ${table.worst?.medianRps} req/s (${table.worst?.costOfPage}× a page)`,
  );
  const worstKind = kinds.find((kind) => kind.id === table.worst?.id) ?? kinds[0];
  const flood = worstKind ? await measureFlood(worstKind, floodS) : null;
  return { durationS, rounds, statuses, ...table, flood, targets: REQUEST_COST_TARGETS };
}

/**
 * A flood of one kind of request against a fresh server: RSS once a second, peak RSS and the answers by status.
 * @param {RequestKind} kind
 * @param {number} durationS
 */
async function measureFlood(kind, durationS) {
  heading(`A flood of ${kind.label} for ${durationS} s (wrk, 1 thread, 10 connections)`);
  const server = await startOurs({ name: 'ours (access log on)' });
  try {
    const before = statusesOf(await metricsText(server.metricsUrl));
    /** @type {number[]} */
    const rss = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        rss.push(round(rssMiB(server.pid), 1));
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    const load = await runWrk(server.url, { durationS, threads: 1, headers: kind.headers, script: SCRIPT, scriptArgs: [kind.path] });
    sampling = false;
    await sampler;
    const statuses = statusesAdded(before, statusesOf(await metricsText(server.metricsUrl)));
    const serverErrors = Object.entries(statuses)
      .filter(([code]) => code.startsWith('5'))
      .reduce((sum, [, count]) => sum + count, 0);
    const result = {
      id: kind.id,
      label: kind.label,
      durationS,
      requests: load.requests,
      rps: round(load.rps, 0),
      statuses,
      serverErrors,
      socketErrors: load.socketErrors,
      rssMiB: { median: round(median(rss), 1), max: round(Math.max(...rss), 1) },
      peakRssMiB: peakRssMiB(server.pid),
    };
    log(
      `  ${result.requests} requests, ${result.rps} req/s; statuses ${JSON.stringify(statuses)}; RSS median ${result.rssMiB.median} MiB, ` +
        `max ${result.rssMiB.max}; peak (VmHWM) ${result.peakRssMiB} MiB`,
    );
    if (serverErrors > 0) loud(`${serverErrors} answers were 5xx in the flood`);
    return result;
  } finally {
    await server.stop();
  }
}
