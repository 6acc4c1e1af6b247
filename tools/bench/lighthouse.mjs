// Lighthouse 12 (default mobile config) against one page, with Chromium from chrome-launcher.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, heading, log, round } from './util.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHECKED_CATEGORIES = ['accessibility', 'best-practices', 'seo'];
const SCORE_MODES = new Set(['binary', 'numeric', 'metricSavings']);

/** A short text for one row of an audit's details: the element when there is one, and why. */
function describeItem(item) {
  const sub = item.subItems?.items ?? [];
  const reasons = sub.map((x) => x.reason ?? x.cause ?? x.extra?.value ?? null).filter((x) => typeof x === 'string');
  const node = [item.node, item.source, ...sub.map((x) => x.node)].find((x) => x?.type === 'node');
  const parts = [];
  if (node) {
    parts.push(node.selector && `selector ${node.selector}`, node.snippet && `snippet ${node.snippet}`);
    if (node.nodeLabel && node.nodeLabel !== node.snippet && node.nodeLabel !== node.selector) parts.push(`label "${node.nodeLabel}"`);
    if (node.explanation) parts.push(`why: ${node.explanation.replace(/\s+/g, ' ')}`);
  } else {
    for (const value of [item.description, item.issueType, item.source, item.url, item.sourceLocation?.url]) {
      if (typeof value === 'string' && value) parts.push(value);
    }
  }
  if (typeof item.score === 'number') parts.push(`shift ${item.score.toFixed(4)}`);
  if (reasons.length) parts.push(`reason: ${reasons.join('; ')}`);
  const text = parts.filter(Boolean).join(' | ');
  return text || JSON.stringify(item).slice(0, 300);
}

/** Rows of a details table, looking inside a `list` of tables (as LCP element uses). */
function detailItems(audit) {
  const details = audit?.details;
  if (!details) return [];
  if (details.type === 'list') return details.items.flatMap((table) => (table.items ?? []).filter((x) => x.node));
  return details.items ?? [];
}

/** Audits with a score below 1 in `categoryId`, with their ids, titles and elements. */
function failingAudits(lhr, categoryId) {
  const category = lhr.categories[categoryId];
  if (!category) return [];
  return category.auditRefs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && SCORE_MODES.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1)
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

/** Simulated LCP split in TTFB, load delay, load time and render delay (ms), as the LCP element audit shows it. */
function lcpPhases(lhr) {
  const table = (lhr.audits['largest-contentful-paint-element']?.details?.items ?? []).find((t) =>
    t.headings?.some((h) => h.key === 'phase'),
  );
  if (!table) return null;
  return Object.fromEntries(table.items.map((item) => [item.phase, round(item.timing, 0)]));
}

/** Runs Lighthouse on `url`, writes the full JSON report to `reportFile`, returns the summary. */
export async function runLighthouse(url, { reportFile }) {
  heading('Lighthouse 12 (mobile, default config)');
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
      onlyCategories: CATEGORIES,
      ignoreStatusCode: true,
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
  const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
  const numeric = (id) => lhr.audits[id]?.numericValue ?? null;
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
    renderBlockingRequests: (lhr.audits['render-blocking-insight']?.details?.items ?? []).filter((item) => item.url).length,
    lcpElement: detailItems(lhr.audits['largest-contentful-paint-element']).map(describeItem)[0] ?? null,
    layoutShifts: detailItems(lhr.audits['layout-shifts']).map(describeItem),
    failing: CHECKED_CATEGORIES.flatMap((id) => failingAudits(lhr, id)),
    reportFile: path.relative(ROOT, reportFile),
  };

  log(`  Lighthouse ${summary.lighthouseVersion}, ${summary.formFactor}, CPU benchmark index ${summary.benchmarkIndex}`);
  for (const id of CATEGORIES) log(`  ${id.padEnd(15)} ${summary.scores[id] ?? 'n/a'}`);
  log(
    `  LCP ${summary.lcpMs} ms, TBT ${summary.tbtMs} ms, CLS ${summary.cls}, FCP ${summary.fcpMs} ms, Speed Index ${summary.speedIndexMs} ms`,
  );
  if (summary.lcpElement) log(`  LCP element: ${summary.lcpElement}`);
  for (const shift of summary.cls > 0 ? summary.layoutShifts : []) log(`  Layout shift: ${shift}`);
  if (summary.failing.length === 0) log('  No failing accessibility, best-practices or SEO audits.');
  for (const audit of summary.failing) {
    log(`  FAILING [${audit.category}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    if (audit.explanation) log(`      ${audit.explanation}`);
    for (const item of audit.items) log(`      - ${item}`);
  }
  log(`  Full report: ${summary.reportFile}`);
  return summary;
}
