// What `npm run gameday` hands the SRE: a table (fault → alert → fired after → notified →
// resolved after) and a picture of the timeline, one lane per fault, written as SVG (a text
// file any browser opens) to gameday-report/.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { markdownTable } from '../lib/table.mjs';

/** @typedef {import('./run.mjs').GamedayResult} GamedayResult @typedef {import('./run.mjs').FaultResult} FaultResult */

/** Seconds between two instants, or a dash. @param {number | undefined} from @param {number | undefined} to */
const seconds = (from, to) => (from !== undefined && to !== undefined ? `${Math.round((to - from) / 1000)} s` : '—');

/** The table's rows, header first. @param {GamedayResult} result */
export function reportRows(result) {
  return [
    ['fault', 'alert', 'fired after', 'notified', 'resolved after', 'runbook', 'outcome'],
    ...result.faults.map((entry) => [
      entry.id,
      entry.alert,
      seconds(entry.injectedAt, entry.firedAt),
      entry.notifiedAt ? `${seconds(entry.injectedAt, entry.notifiedAt)} (${entry.notification?.receiver ?? 'Alertmanager'})` : 'no',
      seconds(entry.removedAt, entry.resolvedAt),
      runbookOutcome(entry),
      entry.error ?? (noise(entry).length ? `noise: ${noise(entry).join(', ')}` : 'ok'),
    ]),
  ];
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

/** The rows (the first the header) as an aligned table. @param {string[][]} rows */
export const formatTable = ([header = [], ...rows]) => markdownTable(header, rows, { aligned: true });

/** @param {string} text */
const escapeXml = (text) => text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char] ?? char);

/**
 * The timeline as SVG: per fault, a bar from injection to removal (the fault live), one from
 * removal to the resolved notification, and marks where its alert fired and was notified.
 * @param {GamedayResult} result
 */
export function timelineSvg(result) {
  const lane = 34;
  const left = 300;
  const width = 1100;
  const top = 50;
  const start = result.faultsAt;
  const end = Math.max(result.endedAt, start + 1000);
  const x = (/** @type {number} */ at) => left + ((at - start) / (end - start)) * (width - left - 20);
  const parts = [
    `<text x="10" y="24" font-size="16" font-weight="bold">Game day in ${escapeXml(result.namespace)}: faults injected at ${new Date(start).toISOString()}</text>`,
  ];
  for (let tick = 0; tick <= (end - start) / 1000; tick += 30) {
    const at = x(start + tick * 1000);
    parts.push(`<line x1="${at}" y1="${top - 8}" x2="${at}" y2="${top + lane * result.faults.length}" stroke="#ddd"/>`);
    parts.push(`<text x="${at}" y="${top - 12}" font-size="10" text-anchor="middle">${tick} s</text>`);
  }
  result.faults.forEach((entry, index) => {
    const y = top + index * lane;
    parts.push(`<text x="10" y="${y + 20}" font-size="12">${escapeXml(`${entry.id} → ${entry.alert}`)}</text>`);
    const injected = entry.injectedAt ?? start;
    const removed = entry.removedAt ?? result.endedAt;
    parts.push(
      `<rect x="${x(injected)}" y="${y + 8}" width="${Math.max(1, x(removed) - x(injected))}" height="16" fill="#f4a6a6"><title>fault live</title></rect>`,
    );
    if (entry.resolvedAt)
      parts.push(
        `<rect x="${x(removed)}" y="${y + 8}" width="${Math.max(1, x(entry.resolvedAt) - x(removed))}" height="16" fill="#a6d4f4"><title>until resolved</title></rect>`,
      );
    for (const [at, colour, label] of /** @type {[number | undefined, string, string][]} */ ([
      [entry.firedAt, '#c00', 'fired'],
      [entry.notifiedAt, '#06c', 'notified'],
      [entry.resolvedAt, '#080', 'resolved'],
    ]))
      if (at)
        parts.push(
          `<circle cx="${x(at)}" cy="${y + 16}" r="5" fill="${colour}"><title>${label} after ${seconds(injected, at)}</title></circle>`,
        );
    if (entry.error)
      parts.push(`<text x="${x(removed) + 6}" y="${y + 20}" font-size="10" fill="#c00">${escapeXml(entry.error.slice(0, 80))}</text>`);
  });
  const legendY = top + lane * result.faults.length + 24;
  parts.push(
    `<text x="10" y="${legendY}" font-size="11">red bar: fault live · blue bar: removed, awaiting the resolved notification · dots: fired (red), notified (blue), resolved (green)</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${legendY + 16}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n</svg>\n`;
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
  writeFileSync(table, `${formatTable(reportRows(result))}\n`);
  writeFileSync(timeline, timelineSvg(result));
  return { table, timeline };
}
