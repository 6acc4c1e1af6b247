// Pages under floods: /ja offered a fixed rate (--flood-page-rate, default 1,000 req/s) by
// vegeta while a second client sends one kind of request at a fixed --flood-rate (default
// 200 req/s) for --flood-kind-s (default 60), for each kind in turn, against one server:
// every /ja answered 200 with p99 within 2× its quiet p99 at the same rate (measured alone for
// --flood-quiet-s, default 30, before each kind: alternating, so the quiet p99 is a median),
// the second client's 5xx all counted shedding, the renderer's CPU within its bound. Then the
// dearest kind (the most CPU of the pod's processes a second) for --flood-s (default 180)
// against a fresh server: the pod's memory, all its processes together, within 180 MiB.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { heading, log, loud, median, round } from './util.mjs';
import { cpuMs, startOurs } from './bench-servers.mjs';
import { metricsText, statusesAdded, statusesOf } from './mixed-load.mjs';
import { requestKinds } from './request-cost.mjs';
import { attack, ensureVegeta, writeTargets } from './vegeta.mjs';

export const FLOOD_TARGETS = { p99OfQuiet: 2, rendererCores: 1, podMemoryMiB: 180 };
/** Distinct requests of each kind in its targets file, cycled through by the attack. */
const DISTINCT_TARGETS = 2000;

/**
 * The floods: the five kinds crawlers and scanners send, and paths only Next answers (a `$`
 * takes a 404 past its template), which the renderer's limits bound.
 * @returns {Promise<import('./request-cost.mjs').RequestKind[]>}
 */
async function floodKinds() {
  const kinds = await requestKinds();
  const kind = (/** @type {string} */ id, /** @type {string} */ label) => {
    const found = kinds.find((each) => each.id === id);
    if (!found) throw new Error(`flood: the request-cost stage has no kind ${id}`);
    return { ...found, label };
  };
  return [
    kind('navigation-not-found', 'router requests for missing paths'),
    kind('query-not-found', '404s with a 4 KiB query'),
    kind('image', '/_next/image'),
    kind('api', 'random /api/*'),
    kind('segments', '200-segment paths'),
    { id: 'rendered', label: 'paths Next must render', path: '/ja/{hex}$' },
  ];
}

/** The pod's processes: the server and its children (the renderer). @param {number} pid */
function processTree(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children];
}

/** Proportional set size, MiB: shared pages (Node's binary) counted once across the processes. @param {number} pid */
function pssMiB(pid) {
  const match = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** VmHWM, MiB: each process's own peak, shared pages counted in each. @param {number} pid */
function hwmMiB(pid) {
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** Samples the pod's memory once a second until stopped: the processes' PSS summed, and each one's peak. @param {number} pid */
function sampleMemory(pid) {
  /** @type {number[]} */
  const pss = [];
  const peaks = { serving: 0, renderer: 0 };
  const timer = setInterval(() => {
    try {
      const [serving = 0, renderer = 0] = processTree(pid).map(pssMiB);
      pss.push(serving + renderer);
      peaks.serving = Math.max(peaks.serving, serving);
      peaks.renderer = Math.max(peaks.renderer, renderer);
    } catch {
      // A renderer restarting between the listing and the read.
    }
  }, 1000);
  return () => {
    clearInterval(timer);
    const tree = processTree(pid);
    return {
      peakPssMiB: round(Math.max(...pss), 1),
      medianPssMiB: round(median(pss), 1),
      peakPssByProcessMiB: { serving: round(peaks.serving, 1), renderer: round(peaks.renderer, 1) },
      hwmSumMiB: round(
        tree.reduce((sum, each) => sum + hwmMiB(each), 0),
        1,
      ),
      processes: tree.length,
    };
  };
}

/** A counter's value summed over its series, from the server's exposition. @param {string} text @param {string} name */
function counterSum(text, name) {
  return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** A folder for one server's targets files and vegeta's results, removed with the server. */
const targetsFolder = () => mkdtempSync(path.join(tmpdir(), 'meridian-vegeta-'));

/** @param {Record<string, number>} statuses @param {(code: number) => boolean} test */
const countOf = (statuses, test) => Object.entries(statuses).reduce((sum, [code, count]) => sum + (test(Number(code)) ? count : 0), 0);

/**
 * /ja at `pageRate` alone, or beside one kind at `floodRate`: both clients' answers, the shed
 * renders, each process's CPU a second, the pod's memory.
 * @param {string} vegeta
 * @param {Awaited<ReturnType<typeof startOurs>>} server
 * @param {{ pageTargets: string, floodTargets?: string, pageRate: number, floodRate: number, durationS: number }} run
 */
async function measureRun(vegeta, server, { pageTargets, floodTargets, pageRate, floodRate, durationS }) {
  const before = await metricsText(server.metricsUrl);
  const [, rendererPid] = processTree(server.pid);
  const cpuBefore = [cpuMs(server.pid), rendererPid ? cpuMs(rendererPid) : 0];
  const load = loadavg()[0];
  const stopSampling = sampleMemory(server.pid);
  const [page, flood] = await Promise.all([
    attack(vegeta, { targetsFile: pageTargets, rate: pageRate, durationS }),
    floodTargets ? attack(vegeta, { targetsFile: floodTargets, rate: floodRate, durationS }) : null,
  ]);
  const memory = stopSampling();
  const after = await metricsText(server.metricsUrl);
  const [, rendererNow] = processTree(server.pid);
  const cores = (/** @type {number} */ ms) => round(ms / 1000 / durationS, 2);
  const shed = counterSum(after, 'meridian_render_shed_total') - counterSum(before, 'meridian_render_shed_total');
  return {
    loadAverage: [round(load, 1), round(loadavg()[0], 1)],
    page: { ...page, non200: page.requests - (page.statuses['200'] ?? 0) },
    flood: flood && { ...flood, serverErrors: countOf(flood.statuses, (code) => code >= 500 || code === 0), shed },
    serverStatuses: statusesAdded(statusesOf(before), statusesOf(after)),
    cpuCores: {
      serving: cores(cpuMs(server.pid) - (cpuBefore[0] ?? 0)),
      // A renderer that restarted meanwhile is measured from its start.
      renderer: rendererNow ? cores(cpuMs(rendererNow) - (rendererNow === rendererPid ? (cpuBefore[1] ?? 0) : 0)) : 0,
    },
    restarts: counterSum(after, 'meridian_renderer_restarts_total') - counterSum(before, 'meridian_renderer_restarts_total'),
    memory,
  };
}

/** @param {string} label @param {Awaited<ReturnType<typeof measureRun>>} run */
function logRun(label, run) {
  const flood = run.flood
    ? `; flood ${run.flood.rate} req/s, statuses ${JSON.stringify(run.flood.statuses)}, shed ${run.flood.shed}, p99 ${run.flood.p99Ms} ms`
    : '';
  log(
    `  ${label.padEnd(34)} /ja ${run.page.rate} req/s p99 ${run.page.p99Ms} ms, non-200 ${run.page.non200}${flood}; ` +
      `CPU serving ${run.cpuCores.serving} renderer ${run.cpuCores.renderer} cores; pod PSS peak ${run.memory.peakPssMiB} MiB ` +
      `(serving ${run.memory.peakPssByProcessMiB.serving}, renderer ${run.memory.peakPssByProcessMiB.renderer}); load ${run.loadAverage.join('→')}`,
  );
}

/**
 * @param {{ pageRate: number, floodRate: number, kindS: number, quietS: number, floodS: number }} options
 */
export async function measureFloods({ pageRate, floodRate, kindS, quietS, floodS }) {
  heading(`/ja at ${pageRate} req/s (vegeta) through floods of ${floodRate} req/s, ${kindS} s each, each after ${quietS} s alone`);
  const vegeta = ensureVegeta();
  const kinds = await floodKinds();
  const server = await startOurs({ name: 'ours (access log on)' });
  const targets = targetsFolder();
  /** @type {{ quiet: Awaited<ReturnType<typeof measureRun>>[], kinds: (Awaited<ReturnType<typeof measureRun>> & { id: string, label: string })[] }} */
  const runs = { quiet: [], kinds: [] };
  try {
    const pageTargets = writeTargets(path.join(targets, 'ja.json'), server.url, { path: '/ja' }, 1);
    for (const kind of kinds) {
      const quiet = await measureRun(vegeta, server, { pageTargets, pageRate, floodRate, durationS: quietS });
      logRun('quiet', quiet);
      runs.quiet.push(quiet);
      const floodTargets = writeTargets(path.join(targets, `${kind.id}.json`), server.url, kind, DISTINCT_TARGETS);
      const flooded = await measureRun(vegeta, server, { pageTargets, floodTargets, pageRate, floodRate, durationS: kindS });
      logRun(kind.label, flooded);
      runs.kinds.push({ id: kind.id, label: kind.label, ...flooded });
    }
  } finally {
    await server.stop();
    rmSync(targets, { recursive: true, force: true });
  }
  const quietP99 = runs.quiet.map((run) => run.page.p99Ms);
  const quietMedian = median(quietP99);
  const rows = runs.kinds.map((run) => ({ ...run, p99OfQuiet: round(run.page.p99Ms / quietMedian, 2) }));
  const dearest = [...rows].sort((a, b) => b.cpuCores.serving + b.cpuCores.renderer - (a.cpuCores.serving + a.cpuCores.renderer))[0];
  const long = dearest
    ? await measureLongFlood(
        vegeta,
        kinds.find((kind) => kind.id === dearest.id),
        { pageRate, floodRate, floodS },
      )
    : null;
  return {
    pageRate,
    floodRate,
    kindS,
    quietS,
    quiet: { p99Ms: quietP99, medianP99Ms: round(quietMedian, 2) },
    kinds: rows,
    long,
    targets: FLOOD_TARGETS,
  };
}

/**
 * The dearest kind for `floodS` against a fresh server, /ja beside it: the pod's memory throughout.
 * @param {string} vegeta
 * @param {{ id: string, label: string, path: string, headers?: Record<string, string> } | undefined} kind
 * @param {{ pageRate: number, floodRate: number, floodS: number }} options
 */
async function measureLongFlood(vegeta, kind, { pageRate, floodRate, floodS }) {
  if (!kind) return null;
  heading(`The dearest, ${kind.label}, for ${floodS} s against a fresh server, /ja beside it`);
  const server = await startOurs({ name: 'ours (access log on)' });
  const targets = targetsFolder();
  try {
    const pageTargets = writeTargets(path.join(targets, 'ja.json'), server.url, { path: '/ja' }, 1);
    const floodTargets = writeTargets(path.join(targets, `${kind.id}.json`), server.url, kind, DISTINCT_TARGETS);
    const run = await measureRun(vegeta, server, { pageTargets, floodTargets, pageRate, floodRate, durationS: floodS });
    logRun(kind.label, run);
    if (run.memory.peakPssMiB > FLOOD_TARGETS.podMemoryMiB) loud(`the pod's memory peaked at ${run.memory.peakPssMiB} MiB`);
    return { id: kind.id, label: kind.label, durationS: floodS, ...run };
  } finally {
    await server.stop();
    rmSync(targets, { recursive: true, force: true });
  }
}
