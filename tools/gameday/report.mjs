// What `npm run gameday` hands the SRE: a table (fault → alert → fired after → notified →
// resolved after) and a picture of the timeline, one lane per fault, written as SVG (a text
// file any browser opens) to gameday-report/.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { circle, line, linearScale, rect, svgDocument, text } from '../lib/svg.mjs';
import { markdownTable } from '../lib/table.mjs';

/** @typedef {import('./run.mjs').GamedayResult} GamedayResult @typedef {import('./run.mjs').FaultResult} FaultResult */

/** Seconds between two instants, or a dash. @param {number | undefined} from @param {number | undefined} to */
const seconds = (from, to) => (from !== undefined && to !== undefined ? `${Math.round((to - from) / 1000)} s` : '—');

export const REPORT_HEADER = ['fault', 'alert', 'fired after', 'notified', 'resolved after', 'runbook', 'outcome'];

/** The table's rows, a fault each, under REPORT_HEADER. @param {GamedayResult} result */
export function reportRows(result) {
  return result.faults.map((entry) => [
    entry.id,
    entry.alert,
    seconds(entry.injectedAt, entry.firedAt),
    entry.notifiedAt ? `${seconds(entry.injectedAt, entry.notifiedAt)} (${entry.notification?.receiver ?? 'Alertmanager'})` : 'no',
    seconds(entry.removedAt, entry.resolvedAt),
    runbookOutcome(entry),
    entry.error ?? (noise(entry).length ? `noise: ${noise(entry).join(', ')}` : 'ok'),
  ]);
}

/** Alerts of the fault's release that fired or were notified beyond the expected ones. @param {FaultResult} entry */
export const noise = (entry) => [
  ...new Set([
    ...entry.firing.filter((alert) => !entry.expected.firing.includes(alert)),
    ...entry.notified.filter((alert) => !entry.expected.notified.includes(alert)),
  ]),
];

/** @param {FaultResult} entry */
function runbookOutcome(entry) {
  if (!entry.steps) return '—';
  const failed = entry.steps.filter((step) => step.exitCode !== 0).length;
  const missed = (entry.evidence ?? []).filter((each) => !each.found).length;
  const panel = entry.panel ? (entry.panel.shows ? 'panel shows it' : 'panel misses it') : 'no panel';
  return `${entry.steps.length} steps${failed ? `, ${failed} failed` : ''}${missed ? `, ${missed} findings missing` : ''}; ${panel}`;
}

/**
 * The timeline as SVG: per fault, a bar from injection to removal (the fault live), one from
 * removal to the resolved notification, and marks where its alert fired and was notified.
 * @param {GamedayResult} result
 */
export function timelineSvg(result) {
  const lane = 34;
  const width = 1100;
  const top = 50;
  const start = result.faultsAt;
  const end = Math.max(result.endedAt, start + 1000);
  const x = linearScale([start, end], [300, width - 20]);
  const parts = [
    text(10, 24, `Game day in ${result.namespace}: faults injected at ${new Date(start).toISOString()}`, {
      'font-size': 16,
      'font-weight': 'bold',
    }),
  ];
  for (let tick = 0; tick <= (end - start) / 1000; tick += 30) {
    const at = x(start + tick * 1000);
    parts.push(line(at, top - 8, at, top + lane * result.faults.length, { stroke: '#ddd' }));
    parts.push(text(at, top - 12, `${tick} s`, { 'font-size': 10, 'text-anchor': 'middle' }));
  }
  result.faults.forEach((entry, index) => {
    const y = top + index * lane;
    parts.push(text(10, y + 20, `${entry.id} → ${entry.alert}`));
    const injected = entry.injectedAt ?? start;
    const removed = entry.removedAt ?? result.endedAt;
    const bar = (/** @type {number} */ from, /** @type {number} */ to, /** @type {string} */ fill, /** @type {string} */ title) =>
      rect({ x: x(from), y: y + 8, width: Math.max(1, x(to) - x(from)), height: 16, fill, title });
    parts.push(bar(injected, removed, '#f4a6a6', 'fault live'));
    if (entry.resolvedAt) parts.push(bar(removed, entry.resolvedAt, '#a6d4f4', 'until resolved'));
    for (const [at, fill, label] of /** @type {[number | undefined, string, string][]} */ ([
      [entry.firedAt, '#c00', 'fired'],
      [entry.notifiedAt, '#06c', 'notified'],
      [entry.resolvedAt, '#080', 'resolved'],
    ]))
      if (at) parts.push(circle(x(at), y + 16, 5, fill, `${label} after ${seconds(injected, at)}`));
    if (entry.error) parts.push(text(x(removed) + 6, y + 20, entry.error.slice(0, 80), { 'font-size': 10, fill: '#c00' }));
  });
  const legendY = top + lane * result.faults.length + 24;
  parts.push(
    text(
      10,
      legendY,
      'red bar: fault live · blue bar: removed, awaiting the resolved notification · dots: fired (red), notified (blue), resolved (green)',
      { 'font-size': 11 },
    ),
  );
  return `${svgDocument({ width, height: legendY + 16, fontSize: 12 }, parts)}\n`;
}

/**
 * Writes the table (text) and the timeline (SVG) to `dir`; resolves with their paths.
 * @param {GamedayResult} result @param {string} dir
 */
export function writeReport(result, dir) {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date(result.startedAt).toISOString().replace(/[:.]/g, '-');
  const table = path.join(dir, `gameday-${stamp}.txt`);
  const timeline = path.join(dir, `gameday-${stamp}.svg`);
  writeFileSync(table, `${markdownTable(REPORT_HEADER, reportRows(result), { aligned: true })}\n`);
  writeFileSync(timeline, timelineSvg(result));
  return { table, timeline };
}
