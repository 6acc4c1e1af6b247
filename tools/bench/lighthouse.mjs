// Lighthouse 12 (default mobile config) against one page, with Chromium from chrome-launcher,
// and the pages measured in rounds that alternate with the floor (tools/bench/floor.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, heading, log, median, round } from './util.mjs';

/**
 * Under applied throttling, medians in ms: the static twin's LCP over the floor's, Meridian's
 * LCP over its twin's, and Meridian's TBT over the floor's. CLS is 0 in every run.
 */
export const APPLIED_TARGETS = { twinLcpOverFloorMs: 200, lcpOverTwinMs: 50, tbtOverFloorMs: 60 };
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHECKED_CATEGORIES = ['accessibility', 'best-practices', 'seo'];
const SCORE_MODES = new Set(['binary', 'numeric', 'metricSavings']);

/**
 * A row of an audit's details, read as the JSON it is: Lighthouse's own types cover every
 * kind of detail, and this summary reads a few fields of whichever rows it finds.
 * @typedef {Record<string, unknown>} DetailRow
 * @typedef {{ type: 'node', selector?: string, snippet?: string, nodeLabel?: string, explanation?: string }} NodeCell
 */

/** @returns {value is DetailRow} */
const isRow = (/** @type {unknown} */ value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** @returns {value is NodeCell} */
const isNode = (/** @type {unknown} */ value) => isRow(value) && value.type === 'node';
/** The rows of `value` when it is a list of them. */
const rowsOf = (/** @type {unknown} */ value) => (Array.isArray(value) ? value.filter(isRow) : []);

/**
 * A short text for one row of an audit's details: the element when there is one, and why.
 * @param {DetailRow} item
 */
function describeItem(item) {
  const sub = isRow(item.subItems) ? rowsOf(item.subItems.items) : [];
  const reasons = sub
    .map((x) => x.reason ?? x.cause ?? (isRow(x.extra) ? x.extra.value : undefined) ?? null)
    .filter((x) => typeof x === 'string');
  const node = [item.node, item.source, ...sub.map((x) => x.node)].find(isNode);
  const parts = [];
  if (node) {
    parts.push(node.selector && `selector ${node.selector}`, node.snippet && `snippet ${node.snippet}`);
    if (node.nodeLabel && node.nodeLabel !== node.snippet && node.nodeLabel !== node.selector) parts.push(`label "${node.nodeLabel}"`);
    if (node.explanation) parts.push(`why: ${node.explanation.replace(/\s+/g, ' ')}`);
  } else {
    const sourceUrl = isRow(item.sourceLocation) ? item.sourceLocation.url : undefined;
    for (const value of [item.description, item.issueType, item.source, item.url, sourceUrl]) {
      if (typeof value === 'string' && value) parts.push(value);
    }
  }
  if (typeof item.score === 'number') parts.push(`shift ${item.score.toFixed(4)}`);
  if (reasons.length) parts.push(`reason: ${reasons.join('; ')}`);
  const text = parts.filter(Boolean).join(' | ');
  return text || JSON.stringify(item).slice(0, 300);
}

/**
 * The rows of an audit's details (a table's items).
 * @param {{ details?: unknown } | undefined} audit
 */
const itemsOf = (audit) => (isRow(audit?.details) ? rowsOf(audit.details.items) : []);

/**
 * Rows of a details table, looking inside a `list` of tables (as LCP element uses).
 * @param {{ details?: unknown } | undefined} audit
 */
function detailItems(audit) {
  const details = audit?.details;
  if (!isRow(details)) return [];
  if (details.type === 'list') return rowsOf(details.items).flatMap((table) => rowsOf(table.items).filter((x) => x.node));
  return rowsOf(details.items);
}

/**
 * Audits with a score below 1 in `categoryId`, with their ids, titles and elements.
 * @param {import('lighthouse').Result} lhr
 * @param {string} categoryId
 */
function failingAudits(lhr, categoryId) {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  return category.auditRefs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .flatMap(({ ref, audit }) =>
      audit && SCORE_MODES.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1 ? [{ ref, audit }] : [],
    )
    .map(({ ref, audit }) => ({
      category: categoryId,
      id: audit.id,
      title: audit.title,
      score: audit.score,
      weight: ref.weight,
      displayValue: audit.displayValue ?? null,
      explanation: audit.explanation ?? null,
      items: detailItems(audit).slice(0, 10).map(describeItem),
    }));
}

/**
 * Simulated LCP split in TTFB, load delay, load time and render delay (ms), as the LCP element audit shows it.
 * @param {import('lighthouse').Result} lhr
 * @returns {Record<string, number | null> | null}
 */
function lcpPhases(lhr) {
  const table = itemsOf(lhr.audits['largest-contentful-paint-element']).find((t) => rowsOf(t.headings).some((h) => h.key === 'phase'));
  if (!table) return null;
  return Object.fromEntries(
    rowsOf(table.items).map((item) => [String(item.phase), round(typeof item.timing === 'number' ? item.timing : null, 0)]),
  );
}

/**
 * How Lighthouse throttles: `devtools` loads the page under the mobile preset for real
 * (4× CPU, a throttled network), `simulate` loads it unthrottled and estimates the
 * throttled timings from that trace (Lantern).
 * @typedef {'devtools' | 'simulate'} ThrottlingMethod
 */

/**
 * Runs Lighthouse on `url`, writes the full JSON report to `reportFile`, returns the summary.
 * `categories` other than the default leave out the audits of the others (the layout
 * stability runs need only performance).
 * @param {string} url
 * @param {{ reportFile: string, throttlingMethod: ThrottlingMethod, categories?: string[] }} options
 */
export async function runLighthouse(url, { reportFile, throttlingMethod, categories = CATEGORIES }) {
  heading(`Lighthouse 12 (mobile, ${throttlingMethod === 'devtools' ? 'applied' : 'simulated'} throttling): ${url}`);
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  let result;
  try {
    // ignoreStatusCode: the 404 page is measured as a page, not refused as a failed load.
    result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      ignoreStatusCode: true,
      throttlingMethod,
    });
  } finally {
    await chrome.kill();
  }
  if (!result?.lhr) throw new Error('Lighthouse returned no result');
  mkdirSync(path.dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, typeof result.report === 'string' ? result.report : JSON.stringify(result.lhr, null, 2));

  const { lhr } = result;
  for (const warning of lhr.runWarnings ?? []) log(`  warning: ${warning}`);
  if (lhr.runtimeError) {
    throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message} (report: ${reportFile})`);
  }
  const score = (/** @type {string} */ id) => {
    const value = lhr.categories[id]?.score;
    return value == null ? null : Math.round(value * 100);
  };
  const numeric = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? null;
  const summary = {
    url: lhr.finalDisplayedUrl ?? url,
    lighthouseVersion: lhr.lighthouseVersion,
    formFactor: lhr.configSettings?.formFactor,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])),
    lcpMs: round(numeric('largest-contentful-paint'), 0),
    tbtMs: round(numeric('total-blocking-time'), 0),
    cls: round(numeric('cumulative-layout-shift'), 3), // as Lighthouse displays it
    clsRaw: numeric('cumulative-layout-shift'),
    fcpMs: round(numeric('first-contentful-paint'), 0),
    speedIndexMs: round(numeric('speed-index'), 0),
    lcpPhases: lcpPhases(lhr),
    renderBlockingRequests: itemsOf(lhr.audits['render-blocking-insight']).filter((item) => item.url).length,
    lcpElement: detailItems(lhr.audits['largest-contentful-paint-element']).map(describeItem)[0] ?? null,
    layoutShifts: detailItems(lhr.audits['layout-shifts']).map(describeItem),
    failing: CHECKED_CATEGORIES.flatMap((id) => failingAudits(lhr, id)),
    reportFile: path.relative(ROOT, reportFile),
  };

  log(`  Lighthouse ${summary.lighthouseVersion}, ${summary.formFactor}, CPU benchmark index ${summary.benchmarkIndex}`);
  for (const id of categories) log(`  ${id.padEnd(15)} ${summary.scores[id] ?? 'n/a'}`);
  log(
    `  LCP ${summary.lcpMs} ms, TBT ${summary.tbtMs} ms, CLS ${summary.cls}, FCP ${summary.fcpMs} ms, Speed Index ${summary.speedIndexMs} ms`,
  );
  if (summary.lcpElement) log(`  LCP element: ${summary.lcpElement}`);
  for (const shift of (summary.cls ?? 0) > 0 ? summary.layoutShifts : []) log(`  Layout shift: ${shift}`);
  if (summary.failing.length === 0) log('  No failing accessibility, best-practices or SEO audits.');
  for (const audit of summary.failing) {
    log(`  FAILING [${audit.category}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    if (audit.explanation) log(`      ${audit.explanation}`);
    for (const item of audit.items) log(`      - ${item}`);
  }
  log(`  Full report: ${summary.reportFile}`);
  return summary;
}

/**
 * The median of a figure over runs, with its range (null where no run had it).
 * @param {LighthouseSummary[]} runs
 * @param {(summary: LighthouseSummary) => number | null | undefined} get
 */
function spread(runs, get) {
  const values = runs.map(get).filter((value) => typeof value === 'number');
  return values.length
    ? { median: median(values), min: Math.min(...values), max: Math.max(...values) }
    : { median: null, min: null, max: null };
}

/**
 * The figures of one page over its runs.
 * @param {LighthouseSummary[]} runs
 */
function summarise(runs) {
  return {
    runs: runs.length,
    lcpMs: spread(runs, (r) => r.lcpMs),
    tbtMs: spread(runs, (r) => r.tbtMs),
    cls: spread(runs, (r) => r.cls),
    fcpMs: spread(runs, (r) => r.fcpMs),
    performance: spread(runs, (r) => r.scores.performance).median,
    accessibility: spread(runs, (r) => r.scores.accessibility).median,
    bestPractices: spread(runs, (r) => r.scores['best-practices']).median,
    renderBlockingRequests: spread(runs, (r) => r.renderBlockingRequests).median,
    lcpElement: runs.at(-1)?.lcpElement ?? null,
    all: runs,
  };
}

/**
 * How often a page held still: its runs with a CLS of exactly 0, the largest CLS seen, and
 * what moved in each run that shifted (Lighthouse's layout-shift elements).
 * @param {LighthouseSummary[]} runs
 */
function layoutStability(runs) {
  const shifted = runs.filter((run) => run.clsRaw !== 0);
  return {
    runs: runs.length,
    stillRuns: runs.length - shifted.length,
    maxCls: Math.max(0, ...runs.map((run) => run.clsRaw ?? 0)),
    shifts: shifted.map((run) => ({ cls: run.clsRaw, report: run.reportFile, moved: run.layoutShifts })),
  };
}

/**
 * `rounds` rounds of Lighthouse with `throttlingMethod`, each running every page of
 * `pages`, each of `twins` and then the floor, so that a machine busy with other work
 * slows them alike: per page, twin and for the floor, the median of each figure with its
 * range. Then, until each page has `stabilityRuns` runs, more rounds of `pages` alone
 * (performance only): every run of a page counts towards its layout stability. The
 * reports are written to `resultsDir`.
 * @param {{ pages: { id: string, url: string }[], twins?: { id: string, twinOf: string, url: string }[], floorUrl: string,
 *   rounds: number, stabilityRuns?: number, throttlingMethod: ThrottlingMethod, resultsDir: string }} options
 */
export async function measureLighthouse({ pages, twins = [], floorUrl, rounds, stabilityRuns = 0, throttlingMethod, resultsDir }) {
  const targets = [...pages, ...twins, { id: 'floor', url: floorUrl }];
  /** @type {Record<string, LighthouseSummary[]>} */
  const runs = Object.fromEntries(targets.map((target) => [target.id, []]));
  const reportFile = (/** @type {string} */ id, /** @type {number} */ round) =>
    path.join(resultsDir, `lighthouse-${throttlingMethod}-${id.replace(/\s+/g, '-')}-${round}.json`);
  for (let round = 1; round <= rounds; round += 1) {
    for (const target of targets) {
      runs[target.id]?.push(await runLighthouse(target.url, { reportFile: reportFile(target.id, round), throttlingMethod }));
    }
  }
  /** @type {Record<string, LighthouseSummary[]>} */
  const stabilityOnly = Object.fromEntries(pages.map((page) => [page.id, []]));
  for (let round = rounds + 1; round <= stabilityRuns; round += 1) {
    for (const page of pages) {
      const options = { reportFile: reportFile(page.id, round), throttlingMethod, categories: ['performance'] };
      stabilityOnly[page.id]?.push(await runLighthouse(page.url, options));
    }
  }
  return {
    throttlingMethod,
    rounds,
    floor: summarise(runs.floor ?? []),
    pages: pages.map((page) => ({
      id: page.id,
      url: page.url,
      ...summarise(runs[page.id] ?? []),
      layoutStability: layoutStability([...(runs[page.id] ?? []), ...(stabilityOnly[page.id] ?? [])]),
    })),
    twins: twins.map((twin) => ({ id: twin.id, twinOf: twin.twinOf, url: twin.url, ...summarise(runs[twin.id] ?? []) })),
  };
}

/** @typedef {Awaited<ReturnType<typeof runLighthouse>>} LighthouseSummary */
