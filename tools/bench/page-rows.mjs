// The summary table's rows for what a visitor's browser gets: each figure of Meridian's
// pages beside the floor's and, for the paint, beside the static twin's (the same HTML and
// CSS without scripts), measured in the same run.
import { AFTER_LOAD_MS, JS_LATER_OVER_FLOOR_KIB, JS_OVER_FLOOR_KIB } from './js-bytes.mjs';
import { APPLIED_TARGETS } from './lighthouse.mjs';
import { HTML_BUDGET_KIB } from './page-html.mjs';
import { TRACE_TARGETS } from './page-trace.mjs';
import { kib, round } from './util.mjs';

/** @typedef {import('./summary.mjs').Row} Row */
/** @typedef {{ median: number | null, min: number | null, max: number | null }} Spread */

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
/** A median with its range: `812 (790–845)`. */
const shown = (/** @type {Spread} */ s) => (s.median === null ? 'n/a' : `${s.median} (${s.min}–${s.max})`);
/** Meridian's median over the floor's, when both were measured. */
const over = (/** @type {Spread} */ meridian, /** @type {Spread} */ floor) =>
  meridian.median === null || floor.median === null ? null : round(meridian.median - floor.median, 1);
const within = (/** @type {number | null} */ value, /** @type {number} */ limit) => value !== null && value <= limit;
const signed = (/** @type {number | null} */ value) => (value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value}`);

/** @param {Awaited<ReturnType<typeof import('./js-bytes.mjs').measureJsAgainstFloor>> | null} js */
export function jsRows(js) {
  if (!js) return [errorRow('JS by the load event for /, over the floor (KiB br)', `≤ +${JS_OVER_FLOOR_KIB}`)];
  const { meridian, floor, overFloorKiB } = js;
  return [
    row(
      `JS by the load event for / (KiB, compressed bodies; ${meridian.scriptCount} scripts, floor ${floor.scriptCount}): Meridian / floor / over`,
      `${meridian.compressedBodyKiB} / ${floor.compressedBodyKiB} / ${signed(overFloorKiB.byLoad)}`,
      `≤ floor + ${JS_OVER_FLOOR_KIB}`,
      within(overFloorKiB.byLoad, JS_OVER_FLOOR_KIB),
    ),
    row(
      `JS by ${AFTER_LOAD_MS} ms after the load event for /: Meridian / floor / over`,
      `${meridian.afterLoadBodyKiB} / ${floor.afterLoadBodyKiB} / ${signed(overFloorKiB.afterLoad)}`,
      `≤ floor + ${JS_OVER_FLOOR_KIB}`,
      within(overFloorKiB.afterLoad, JS_OVER_FLOOR_KIB),
    ),
    row(
      'JS within 6 s on / (on-demand code included): Meridian / floor / over',
      `${meridian.laterBodyKiB} / ${floor.laterBodyKiB} / ${signed(overFloorKiB.later)}`,
      `≤ floor + ${JS_LATER_OVER_FLOOR_KIB}`,
      within(overFloorKiB.later, JS_LATER_OVER_FLOOR_KIB),
    ),
    row(
      'JS by the load event, transferred with headers (KiB): Meridian / floor',
      `${meridian.transferredKiB} / ${floor.transferredKiB}`,
      'reference',
      null,
    ),
  ];
}

/**
 * @param {Awaited<ReturnType<typeof import('./lighthouse.mjs').measureLighthouse>> | null} applied
 * @param {Awaited<ReturnType<typeof import('./lighthouse.mjs').measureLighthouse>> | null} simulated
 */
export function lighthouseRows(applied, simulated) {
  const { twinLcpOverFloorMs, lcpOverTwinMs, tbtOverFloorMs } = APPLIED_TARGETS;
  const rows = [];
  if (!applied) rows.push(errorRow('Lighthouse mobile, applied throttling', `LCP ≤ twin + ${lcpOverTwinMs} ms`));
  const floor = applied?.floor;
  for (const page of applied?.pages ?? []) {
    if (!floor) continue;
    const twin = applied?.twins.find((candidate) => candidate.twinOf === page.id);
    const path = new URL(page.url).pathname;
    const at = `${path}, applied throttling, medians of ${page.runs} (ranges)`;
    if (twin) {
      const twinOverFloor = over(twin.lcpMs, floor.lcpMs);
      const overTwin = over(page.lcpMs, twin.lcpMs);
      rows.push(
        row(
          `LCP ms ${at}: Meridian / static twin / floor`,
          `${shown(page.lcpMs)} / ${shown(twin.lcpMs)} / ${shown(floor.lcpMs)}`,
          'reference',
          null,
        ),
        row(
          `LCP ms ${path}: the static twin over the floor`,
          signed(twinOverFloor),
          `≤ +${twinLcpOverFloorMs}`,
          within(twinOverFloor, twinLcpOverFloorMs),
        ),
        row(`LCP ms ${path}: Meridian over its static twin`, signed(overTwin), `≤ +${lcpOverTwinMs}`, within(overTwin, lcpOverTwinMs)),
        row(`TBT ms ${path}, applied throttling: the static twin`, shown(twin.tbtMs), 'reference', null),
      );
    } else {
      rows.push(errorRow(`LCP ms ${at}: Meridian / static twin / floor`, `≤ twin + ${lcpOverTwinMs}`));
    }
    const tbtOver = over(page.tbtMs, floor.tbtMs);
    rows.push(
      row(
        `TBT ms ${at}: Meridian / floor / over`,
        `${shown(page.tbtMs)} / ${shown(floor.tbtMs)} / ${signed(tbtOver)}`,
        `≤ floor + ${tbtOverFloorMs}`,
        within(tbtOver, tbtOverFloorMs),
      ),
    );
    const { runs, stillRuns, maxCls } = page.layoutStability;
    rows.push(
      row(
        `CLS ${path}, applied throttling: runs with CLS 0 (the largest CLS)`,
        `${stillRuns} of ${runs} (${round(maxCls, 4)})`,
        '0 in every run',
        runs > 0 && stillRuns === runs,
      ),
    );
  }
  if (!simulated) rows.push(errorRow('Lighthouse mobile, simulated throttling', 'reference'));
  for (const page of simulated?.pages ?? []) {
    const floor = simulated?.floor;
    if (!floor) continue;
    const path = new URL(page.url).pathname;
    rows.push(
      row(
        `Simulated LCP ms · TBT ms · performance ${path} (medians of ${page.runs}) · the floor's`,
        `${page.lcpMs.median} · ${page.tbtMs.median} · ${page.performance} · floor ${floor.lcpMs.median} · ${floor.tbtMs.median} · ${floor.performance}`,
        'reference',
        null,
      ),
    );
    // Lighthouse's errors-in-console audit counts the browser's own "Failed to load resource: 404" for a
    // 404 document, so a not-found page that answers 404, as it must, can score 96 at best there.
    const notFound = page.id === 'not-found';
    rows.push(
      row(
        `Accessibility · best practices ${path}${notFound ? ' (its own 404 status is a console error)' : ''}`,
        `${page.accessibility} · ${page.bestPractices}`,
        notFound ? '100 · ≥ 96' : '100 · 100',
        page.accessibility === 100 && (page.bestPractices ?? 0) >= (notFound ? 96 : 100),
      ),
    );
  }
  return rows;
}

/** @param {import('./summary.mjs').BenchResults['trace']} trace */
export function traceRows(trace) {
  if (!trace) return [errorRow('Parse + style + layout + fonts before LCP (ms, unthrottled trace)', `≤ ${TRACE_TARGETS.firstPaintWorkMs}`)];
  const typography = trace.typography.map((variant) =>
    row(
      `CJK typography, ${variant.page}, ${variant.variant}: parse + style + layout before LCP · layout, thread ms, medians of ${variant.runs}`,
      `${shown(variant.firstPaintWorkMs)} · ${variant.layoutMs.median}`,
      'reference',
      null,
    ),
  );
  const pageRows = trace.pages.flatMap((page) => {
    const path = new URL(page.url).pathname;
    const lcpOver = over(page.lcpMs, trace.floor.lcpMs);
    const twin = trace.twins.find((candidate) => candidate.twinOf === page.id);
    const work = (/** @type {typeof page} */ t) =>
      `${shown(t.firstPaintWorkMs)} (${t.parseMs.median} · ${t.styleMs.median} · ${t.layoutMs.median} · ${t.fontMs.median}; ` +
      `${t.fontLookups.median} font look-ups, ${t.fontWallMs.median} ms wall; paint ${t.paintMs.median})`;
    return [
      row(
        `Parse + style + layout + fonts before LCP ${path}, thread ms, medians of ${page.runs} (parse · style · layout · fonts; font look-ups and their wall time; paint) · the floor's`,
        `${work(page)} · floor ${trace.floor.firstPaintWorkMs.median}`,
        `≤ ${TRACE_TARGETS.firstPaintWorkMs}`,
        within(page.firstPaintWorkMs.median, TRACE_TARGETS.firstPaintWorkMs),
      ),
      ...(twin ? [row(`Parse + style + layout + fonts before LCP ${path}, its static twin`, work(twin), 'reference', null)] : []),
      row(
        `Observed LCP ms ${path}, unthrottled: Meridian / floor / over${twin ? ' · the static twin' : ''}`,
        `${shown(page.lcpMs)} / ${shown(trace.floor.lcpMs)} / ${signed(lcpOver)}${twin ? ` · ${shown(twin.lcpMs)}` : ''}`,
        `≤ floor + ${TRACE_TARGETS.lcpOverFloorMs}`,
        within(lcpOver, TRACE_TARGETS.lcpOverFloorMs),
      ),
    ];
  });
  return [...pageRows, ...typography];
}

/** @param {{ pages: Awaited<ReturnType<typeof import('./page-html.mjs').measurePageHtml>>, floor: import('./page-html.mjs').PageHtml } | null} html */
export function htmlRows(html) {
  if (!html) return [errorRow('Raw HTML (KiB)', `≤ ${HTML_BUDGET_KIB}`)];
  const k = (/** @type {number} */ bytes) => round(kib(bytes), 1);
  return html.pages.map((page) =>
    row(
      `Raw HTML ${new URL(page.url).pathname} (KiB: markup · inline CSS · page data · other scripts) · the floor's`,
      `${k(page.bytes)} (${k(page.markupBytes)} · ${k(page.styleBytes)} · ${k(page.pageDataBytes)} · ${k(page.otherScriptBytes)}) · floor ${k(html.floor.bytes)}`,
      `≤ ${HTML_BUDGET_KIB}`,
      within(k(page.bytes), HTML_BUDGET_KIB),
    ),
  );
}
