// The final table (Markdown, pastes into docs/performance.md) and bench-results/summary.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CEILING_SHARE_TARGET } from './ceiling.mjs';
import { MIXED_LOAD_TARGETS } from './mixed-load.mjs';
import { REQUEST_COST_TARGETS } from './request-cost.mjs';
import { FLOOD_TARGETS } from './flood.mjs';
import { MEMORY_GROWTH_TARGET_MB } from './server-memory.mjs';
import { IMAGE_TARGETS } from './image.mjs';
import { OVERHEAD_TARGETS } from './server-overhead.mjs';
import { htmlRows, jsRows, lighthouseRows, traceRows } from './page-rows.mjs';
import { markdownTable } from '../lib/table.mjs';
import { log } from './util.mjs';

export const RATIO_TARGET = 0.8;

/**
 * What each stage returned: null for a stage that crashed (or did not run).
 * @typedef {object} BenchResults
 * @property {Awaited<ReturnType<typeof import('./throughput.mjs').measureThroughput>> | null} throughput
 * @property {Awaited<ReturnType<typeof import('./ceiling.mjs').measureCeiling>> | null} ceiling
 * @property {Awaited<ReturnType<typeof import('./mixed-load.mjs').measureMixedLoad>> | null} mixedLoad
 * @property {Awaited<ReturnType<typeof import('./request-cost.mjs').measureRequestCost>> | null} requestCost
 * @property {Awaited<ReturnType<typeof import('./flood.mjs').measureFloods>> | null} flood
 * @property {Awaited<ReturnType<typeof import('./js-bytes.mjs').measureJsAgainstFloor>> | null} js
 * @property {Awaited<ReturnType<typeof import('./lighthouse.mjs').measureLighthouse>> | null} lighthouseApplied
 * @property {Awaited<ReturnType<typeof import('./lighthouse.mjs').measureLighthouse>> | null} lighthouseSimulated
 * @property {(Awaited<ReturnType<typeof import('./page-trace.mjs').measurePageTraces>> & { typography: Awaited<ReturnType<typeof import('./page-trace.mjs').measureTypographyCost>> }) | null} trace
 * @property {{ pages: Awaited<ReturnType<typeof import('./page-html.mjs').measurePageHtml>>, floor: import('./page-html.mjs').PageHtml } | null} html
 * @property {Awaited<ReturnType<typeof import('./server-overhead.mjs').measureServerOverhead>> | null} serverOverhead
 * @property {Awaited<ReturnType<typeof import('./server-memory.mjs').measureServerMemory>> | null} serverMemory
 * @property {Awaited<ReturnType<typeof import('./image.mjs').measureImage>> | null} image
 */

/** @typedef {{ metric: string, value: string | number | null, target: string, result: 'PASS' | 'FAIL' | 'info' | 'ERROR' }} Row */

/**
 * @param {string} metric
 * @param {string | number | null} value
 * @param {string} target
 * @param {boolean | null} pass null: reported, not gated
 * @returns {Row}
 */
const row = (metric, value, target, pass) => ({ metric, value, target, result: pass === null ? 'info' : pass ? 'PASS' : 'FAIL' });
/** @type {(metric: string, target: string) => Row} */
const errorRow = (metric, target) => ({ metric, value: 'error', target, result: 'ERROR' });
/** A figure that was not measured (null) meets no target. */
const atMost = (/** @type {number | null} */ value, /** @type {number} */ limit) => value !== null && value <= limit;
const atLeast = (/** @type {number | null} */ value, /** @type {number} */ limit) => value !== null && value >= limit;

/** @param {BenchResults['throughput']} throughput */
function throughputRows(throughput) {
  if (!throughput) {
    return ['/robots.txt', '/', '/ja', '/no-such-page'].map((p) =>
      errorRow(`req/s ${p}`, p === '/' || p === '/ja' ? `≥ ${RATIO_TARGET}× baseline` : '—'),
    );
  }
  const rows = [];
  for (const t of throughput.targets) {
    const gated = t.id === 'root' || t.id === 'ja';
    const wrongStatus = t.status !== t.expectStatus ? ` [HTTP ${t.status}, not ${t.expectStatus}]` : '';
    const value = (t.id === 'baseline' ? `${t.rps}` : `${t.rps} (${t.ratio}× baseline)`) + wrongStatus;
    const pass = gated ? t.ratio >= RATIO_TARGET && !wrongStatus : wrongStatus ? false : null;
    rows.push(row(`req/s ${t.label}`, value, gated ? `≥ ${RATIO_TARGET}× baseline` : t.id === 'baseline' ? 'baseline' : '—', pass));
    rows.push(row(`p50 / p99 ms ${t.path}`, `${t.p50Ms} / ${t.p99Ms}`, '—', null));
    if (t.id === 'not-found') {
      const all = t.status === 404 && t.non2xx3xx === t.requests;
      rows.push(row(`non-2xx/3xx responses ${t.path}`, `${t.non2xx3xx} of ${t.requests} (HTTP ${t.status})`, 'all (404)', all));
    }
    if (t.socketErrors > 0) rows.push(row(`socket errors ${t.path}`, `${t.socketErrors}`, '0', false));
  }
  return rows;
}

/** The server figures from before the work on them, printed beside today's (same machine, quieter day). */
export const PREVIOUS = {
  jaShareOfBare: 0.32,
  jaShareOfBareQuiet: 0.42,
  peakRssMiB: '138–286',
  mixedLoadRssMiB: '314–328',
  mixedLoadHeapUsedMiB: '91–206',
};

/** @param {BenchResults['ceiling']} c */
function ceilingRows(c) {
  const metric = '/ja req/s: bare node:http / ours / ours, access log off / Next server.js (medians)';
  if (!c) return [errorRow(metric, '—'), errorRow('/ja req/s ours as a share of bare', `≥ ${CEILING_SHARE_TARGET}×`)];
  const s = c.servers;
  return [
    row(metric, `${s.bare.medianRps} / ${s.ours.medianRps} / ${s.quiet.medianRps} / ${s.next.medianRps}`, '—', null),
    row(
      `/ja req/s ours (access log on) as a share of bare (before ${PREVIOUS.jaShareOfBare}×)`,
      `${c.shareOfBare.ours}×`,
      `≥ ${CEILING_SHARE_TARGET}×`,
      atLeast(c.shareOfBare.ours, CEILING_SHARE_TARGET),
    ),
    row(
      `/ja req/s ours, access log off, as a share of bare (before ${PREVIOUS.jaShareOfBareQuiet}×)`,
      `${c.shareOfBare.quiet}×`,
      '—',
      null,
    ),
    row("/ja req/s Next's server.js as a share of bare", `${c.shareOfBare.next}×`, 'reference', null),
    row(
      `Peak RSS of ours after its /ja runs, VmHWM (MiB; before ${PREVIOUS.peakRssMiB})`,
      c.peakRssMiB.ours,
      '≤ 180',
      atMost(c.peakRssMiB.ours, 180),
    ),
  ];
}

/** @param {BenchResults['requestCost']} c */
function requestCostRows(c) {
  const { costOfPage, floodPeakRssMiB } = REQUEST_COST_TARGETS;
  if (!c) return [errorRow('The most expensive request, its cost against a page', `≤ ${costOfPage}×`)];
  const flood = c.flood;
  return [
    ...c.rows.map((r) =>
      row(
        `Request cost: ${r.label}, req/s median (rounds) and its cost against the page (HTTP ${c.statuses?.[r.id] ?? '?'})`,
        `${r.medianRps} (${r.rps.join(', ')}): ${r.costOfPage}×`,
        `≤ ${costOfPage}×`,
        atMost(r.costOfPage, costOfPage),
      ),
    ),
    flood
      ? row(
          `Flood of the most expensive (${flood.label}), ${flood.durationS} s: requests, req/s, 5xx, socket errors`,
          `${flood.requests}, ${flood.rps}, ${flood.serverErrors}, ${flood.socketErrors}`,
          '0 × 5xx',
          flood.serverErrors === 0,
        )
      : errorRow('Flood of the most expensive request', '0 × 5xx'),
    flood
      ? row(
          'Flood: RSS median / max, peak (VmHWM), MiB',
          `${flood.rssMiB.median} / ${flood.rssMiB.max}, ${flood.peakRssMiB}`,
          `peak ≤ ${floodPeakRssMiB}`,
          atMost(flood.peakRssMiB, floodPeakRssMiB),
        )
      : errorRow('Flood: peak RSS (MiB)', `≤ ${floodPeakRssMiB}`),
  ];
}

/** @param {BenchResults['flood']} f */
function floodRows(f) {
  const { p99OfQuiet, rendererCores, podMemoryMiB } = FLOOD_TARGETS;
  if (!f) return [errorRow('/ja through floods', `p99 ≤ ${p99OfQuiet}× quiet`)];
  const quiet = row(
    `/ja at ${f.pageRate} req/s alone (vegeta), p99 ms: median (runs)`,
    `${f.quiet.medianP99Ms} (${f.quiet.p99Ms.join(', ')})`,
    '—',
    null,
  );
  const kinds = f.kinds.flatMap((k) => [
    row(
      `Flood of ${k.label} at ${f.floodRate} req/s: /ja p99 ms, × quiet, non-200 of ${k.page.requests}`,
      `${k.page.p99Ms}, ${k.p99OfQuiet}×, ${k.page.non200}`,
      `≤ ${p99OfQuiet}×, 0`,
      k.page.non200 === 0 && atMost(k.p99OfQuiet, p99OfQuiet),
    ),
    row(
      `Flood of ${k.label}: its statuses, 5xx not counted as shed`,
      `${JSON.stringify(k.flood?.statuses ?? {})}, ${Math.max(0, (k.flood?.serverErrors ?? 0) - (k.flood?.shed ?? 0))}`,
      '0',
      (k.flood?.serverErrors ?? 0) <= (k.flood?.shed ?? 0),
    ),
    row(
      `Flood of ${k.label}: CPU cores, serving / renderer (load average)`,
      `${k.cpuCores.serving} / ${k.cpuCores.renderer} (${k.loadAverage.join('→')})`,
      `renderer ≤ ${rendererCores}`,
      atMost(k.cpuCores.renderer, rendererCores),
    ),
  ]);
  const long = f.long
    ? [
        row(
          `${f.long.durationS} s of the dearest (${f.long.label}): /ja p99 ms, non-200; its statuses`,
          `${f.long.page.p99Ms}, ${f.long.page.non200}; ${JSON.stringify(f.long.flood?.statuses ?? {})}`,
          '—',
          null,
        ),
        row(
          `${f.long.durationS} s of the dearest: the pod's memory (PSS of its ${f.long.memory.processes} processes), peak / median MiB (each one's peak: serving, renderer); their VmHWM summed`,
          `${f.long.memory.peakPssMiB} / ${f.long.memory.medianPssMiB} (${f.long.memory.peakPssByProcessMiB.serving}, ${f.long.memory.peakPssByProcessMiB.renderer}); ${f.long.memory.hwmSumMiB}`,
          `peak ≤ ${podMemoryMiB}`,
          atMost(f.long.memory.peakPssMiB, podMemoryMiB),
        ),
      ]
    : [errorRow('The dearest flood: peak memory (MiB)', `≤ ${podMemoryMiB}`)];
  return [quiet, ...kinds, ...long];
}

/** @param {BenchResults['mixedLoad']} m */
function mixedLoadRows(m) {
  const { rssMiB, heapSwingMiB } = MIXED_LOAD_TARGETS;
  if (!m) return [errorRow('RSS through mixed load (MiB)', `≤ ${rssMiB}`)];
  return [
    row(
      `Mixed load, ${m.durationS} s: requests, req/s, 5xx answers, socket errors (before 518,687 requests)`,
      `${m.requests}, ${m.rps}, ${m.serverErrors}, ${m.socketErrors}`,
      '0 × 5xx, 0 socket errors',
      m.serverErrors === 0 && m.socketErrors === 0,
    ),
    row(
      'Mixed load: answers by status; server CPU (share of one core)',
      `${Object.entries(m.statuses)
        .map(([code, count]) => `${code} × ${count}`)
        .join(', ')}; ${m.serverCpuShare}`,
      '—',
      null,
    ),
    row(
      `Mixed load: RSS plateau median / max (MiB; before ${PREVIOUS.mixedLoadRssMiB})`,
      `${m.rssMiB.median} / ${m.rssMiB.max}`,
      `≤ ${rssMiB}`,
      atMost(m.rssMiB.max, rssMiB),
    ),
    row('Mixed load: peak RSS, VmHWM (MiB)', m.peakRssMiB, `≤ ${rssMiB}`, atMost(m.peakRssMiB, rssMiB)),
    row(
      `Mixed load: V8 heap in use min–max (MiB; before ${PREVIOUS.mixedLoadHeapUsedMiB}, a swing of 115)`,
      `${m.heapUsedMiB.min}–${m.heapUsedMiB.max} (swing ${m.heapSwingMiB})`,
      `swing ≤ ${heapSwingMiB}`,
      atMost(m.heapSwingMiB, heapSwingMiB),
    ),
    row(
      'Mixed load: V8 heap reserved / memory outside the heap, medians (MiB)',
      `${m.heapTotalMiB.median} / ${m.externalMiB.median}`,
      '—',
      null,
    ),
  ];
}

const OVERHEAD_PATHS = ['/', '/ja', '/no-such-page'];

/** @param {BenchResults['serverOverhead']} overhead */
function serverOverheadRows(overhead) {
  const t = Object.fromEntries(Object.entries(OVERHEAD_TARGETS).map(([key, value]) => [key, value.toFixed(2)]));
  const ratio = (/** @type {number} */ value) => value.toFixed(2);
  if (!overhead) {
    return OVERHEAD_PATHS.flatMap((p) => [
      errorRow(`ours/Next req/s ${p}`, `≥ ${t.throughput}`),
      errorRow(`ours/Next p99 ${p}`, `≤ ${t.p99}`),
      errorRow(`ours+tracing/Next req/s ${p}`, `≥ ${t.tracingThroughput}`),
    ]);
  }
  const rows = [];
  for (const p of overhead.paths) {
    const wrong = Object.entries(p.statuses).filter(([, status]) => status !== p.expectStatus);
    const note =
      (p.oursFromMemory ? ' (ours from memory)' : ' (Next renders in both; reference)') +
      (wrong.length ? ` [HTTP ${wrong.map(([id, status]) => `${id} ${status}`).join(', ')}, not ${p.expectStatus}]` : '');
    // A reference path is reported, not gated: its status still must be right.
    const gate = (/** @type {boolean} */ pass) => (p.reference ? (wrong.length ? false : null) : pass && !wrong.length);
    rows.push(row(`req/s ${p.path}: Next / ours / ours+tracing`, `${p.next.rps} / ${p.ours.rps} / ${p.tracing.rps}`, '—', null));
    rows.push(row(`p99 ms ${p.path}: Next / ours / ours+tracing`, `${p.next.p99Ms} / ${p.ours.p99Ms} / ${p.tracing.p99Ms}`, '—', null));
    rows.push(
      row(
        `server CPU ms/request ${p.path}: Next / ours / ours+tracing`,
        `${p.next.cpuMsPerRequest} / ${p.ours.cpuMsPerRequest} / ${p.tracing.cpuMsPerRequest}`,
        '—',
        null,
      ),
    );
    rows.push(
      row(
        `ours/Next req/s ${p.path}${note}`,
        `${ratio(p.ratios.throughput)} (of means ${ratio(p.ratios.throughputOfMeans)})`,
        p.reference ? '—' : `≥ ${t.throughput}`,
        gate(p.ratios.throughput >= OVERHEAD_TARGETS.throughput),
      ),
    );
    rows.push(
      row(`ours/Next p99 ${p.path}`, ratio(p.ratios.p99), p.reference ? '—' : `≤ ${t.p99}`, gate(p.ratios.p99 <= OVERHEAD_TARGETS.p99)),
    );
    const tracingValue = `${ratio(p.ratios.tracingThroughput)} (of means ${ratio(p.ratios.tracingThroughputOfMeans)})`;
    rows.push(
      row(
        `ours+tracing/Next req/s ${p.path}`,
        tracingValue,
        p.reference ? '—' : `≥ ${t.tracingThroughput}`,
        gate(p.ratios.tracingThroughput >= OVERHEAD_TARGETS.tracingThroughput),
      ),
    );
    const socketErrors = p.next.socketErrors + p.ours.socketErrors + p.tracing.socketErrors;
    if (socketErrors > 0) rows.push(row(`socket errors ${p.path} (all variants)`, `${socketErrors}`, '0', false));
  }
  rows.push(
    row('OTLP exports during ours+tracing runs', overhead.otlp.exportsDuringTracingRuns, '> 0', overhead.otlp.exportsDuringTracingRuns > 0),
  );
  return rows;
}

/** @param {BenchResults['serverMemory']} memory */
function serverMemoryRows(memory) {
  const metric = 'RSS growth of ours after a full GC, 50 000 random paths (MB)';
  if (!memory) return [errorRow(metric, `< ${MEMORY_GROWTH_TARGET_MB}`)];
  const { before, after, load } = memory;
  const value =
    `${memory.growthMB} (${before.rssMB} → ${after.rssMB}; heap ${before.heapUsedMB} → ${after.heapUsedMB})` +
    (load.errors ? ` [${load.errors} request errors]` : '');
  const raw = (/** @type {{ rawGrowthMB: number, before: Reading, after: Reading }} */ m) =>
    `${m.rawGrowthMB} (${m.before.raw.rssMB} → ${m.after.raw.rssMB})`;
  return [
    row(metric, value, `< ${MEMORY_GROWTH_TARGET_MB}`, memory.growthMB < MEMORY_GROWTH_TARGET_MB && load.errors === 0),
    row('RSS growth of ours as read, garbage included (MB)', raw(memory), 'reference', null),
    row(
      "RSS growth of Next's server.js after a full GC (MB)",
      `${memory.next.growthMB} (${memory.next.before.rssMB} → ${memory.next.after.rssMB})`,
      'reference',
      null,
    ),
    row("RSS growth of Next's server.js as read (MB)", raw(memory.next), 'reference', null),
  ];
}

/** @typedef {{ raw: { rssMB: number } }} Reading */

/** @param {BenchResults['image']} image */
function imageRows(image) {
  const sizeMetric = 'Image layers above the Node base (MB)';
  const readyMetric = 'docker run to /readyz 200, median of 5 (s)';
  if (!image)
    return [errorRow(sizeMetric, `< ${IMAGE_TARGETS.layersAboveBaseMB}`), errorRow(readyMetric, `< ${IMAGE_TARGETS.readySeconds}`)];
  return [
    row(
      sizeMetric,
      `${image.layersAboveBaseMB} (base ${image.base})`,
      `< ${IMAGE_TARGETS.layersAboveBaseMB}`,
      image.layersAboveBaseMB < IMAGE_TARGETS.layersAboveBaseMB,
    ),
    row(
      readyMetric,
      `${image.medianReadySeconds} (${image.readySeconds.join(', ')})`,
      `< ${IMAGE_TARGETS.readySeconds}`,
      image.medianReadySeconds < IMAGE_TARGETS.readySeconds,
    ),
  ];
}

/**
 * Rows of the stages that ran (`stages`: names as in --only); a stage that crashed shows ERROR rows.
 * @param {BenchResults} results
 * @param {ReadonlySet<string> | null} stages null: every stage
 */
export function buildRows(
  {
    throughput,
    ceiling,
    mixedLoad,
    requestCost,
    flood,
    js,
    lighthouseApplied,
    lighthouseSimulated,
    trace,
    html,
    serverOverhead,
    serverMemory,
    image,
  },
  stages,
) {
  const ran = (/** @type {string} */ name) => !stages || stages.has(name);
  return [
    ...(ran('throughput') ? throughputRows(throughput) : []),
    ...(ran('ceiling') ? ceilingRows(ceiling) : []),
    ...(ran('mixed-load') ? mixedLoadRows(mixedLoad) : []),
    ...(ran('request-cost') ? requestCostRows(requestCost) : []),
    ...(ran('flood') ? floodRows(flood) : []),
    ...(ran('js') ? jsRows(js) : []),
    ...(ran('lighthouse') ? lighthouseRows(lighthouseApplied, lighthouseSimulated) : []),
    ...(ran('trace') ? traceRows(trace) : []),
    ...(ran('html') ? htmlRows(html) : []),
    ...(ran('server-overhead') ? [...serverOverheadRows(serverOverhead), ...serverMemoryRows(serverMemory)] : []),
    ...(ran('image') ? imageRows(image) : []),
  ];
}

/** @param {Row[]} rows */
export function printTable(rows) {
  const cells = rows.map((r) => [r.metric, String(r.value), r.target, r.result]);
  log(markdownTable(['Metric', 'Value', 'Target', 'Result'], cells, { aligned: true }));
}

/**
 * @param {string} file
 * @param {unknown} data
 */
export function writeSummary(file, data) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
