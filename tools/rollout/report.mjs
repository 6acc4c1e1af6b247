// rollout-report/: an HTML page of one rollout (summary, chart, timeline), the
// chart as a PNG taken by Chromium, and the raw result as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../debian-packages.mjs';
import { escapeMarkup as escape } from '../lib/svg.mjs';
import { rolloutChartSvg } from './chart-svg.mjs';
import { trafficTotals } from './traffic-totals.mjs';

/** @typedef {import('./scenario.mjs').RolloutResult} RolloutResult */

/** `{ "e2e-a": 12 }` as "e2e-a 12 s". */
const seconds = (/** @type {Record<string, number>} */ byBuild) =>
  Object.entries(byBuild)
    .map(([id, count]) => `${id} ${count} s`)
    .join(', ');

/**
 * @param {RolloutResult} result
 * @returns {(string | number)[][]} name and value
 */
function summaryRows(result) {
  const totals = trafficTotals(result.traffic);
  const { from, to } = result.builds;
  const share = (/** @type {string} */ id) => `${((100 * (totals.builds[id] ?? 0)) / Math.max(totals.ok, 1)).toFixed(1)}%`;
  return [
    ['Requests', `${totals.requests} (${result.settings.ratePerSecond}/s through ${result.settings.via ?? 'haproxy'})`],
    ['5xx', totals.serverErrors],
    ['Connection errors', `${totals.connectionErrors}${totals.connectionErrors ? ` ${JSON.stringify(result.traffic.errorCodes)}` : ''}`],
    ['Other statuses (not the expected one)', totals.otherStatuses],
    ['Answered by', `${from} ${share(from)}, ${to} ${share(to)}`],
    ...(result.exitCodes
      ? [
          [
            'Exit codes of the old processes',
            Object.entries(result.exitCodes)
              .map(([slot, code]) => `${slot}: ${code}`)
              .join(', '),
          ],
        ]
      : []),
    ...(result.replicaSets
      ? [['ReplicaSets after', result.replicaSets.map(({ build, replicas }) => `${build}: ${replicas} replicas`).join(', ')]]
      : []),
    [
      'Prometheus during the roll',
      `${seconds(result.prometheus.seenDuringRoll.seconds)}; both at once ${result.prometheus.seenDuringRoll.mixedSeconds} s`,
    ],
    [
      'Prometheus after',
      Object.entries(result.prometheus.runningAfter)
        .map(([id, count]) => `${count} processes of ${id}`)
        .join(', '),
    ],
    ['build_update_detected beacons', result.prometheus.buildUpdates],
    ['Browser', `opened on ${result.browser.firstBuild}; next page load answered by ${result.browser.navigation.build}`],
    ...(result.settings.detectionMs
      ? [['Shutdown delay / haproxy detection bound', `${result.settings.shutdownDelayMs} ms / ${result.settings.detectionMs} ms`]]
      : []),
  ];
}

const HAPROXY_DESCRIPTION =
  'Two app processes behind haproxy (health checks on /readyz), replaced one by one (SIGTERM, wait for exit, start the new build on the same ports) while a load generator and a Chromium tab go through haproxy.';

/**
 * @param {RolloutResult} result
 * @param {string} generatedAt
 */
function page(result, generatedAt) {
  const rows = summaryRows(result)
    .map(([name, value]) => `<tr><th>${escape(name)}</th><td>${escape(value)}</td></tr>`)
    .join('\n');
  const events = result.events
    .map((event) => `<tr><td>${(event.at / 1000).toFixed(2)} s</td><td>${escape(event.label)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Rollout ${escape(result.builds.from)} → ${escape(result.builds.to)}</title>
<style>
  body { font-family: sans-serif; margin: 2rem; color: #222; max-width: 1040px; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { text-align: left; padding: 0.25rem 1rem 0.25rem 0; vertical-align: top; }
  figure { margin: 0; padding: 12px; display: inline-block; background: #fff; }
  figcaption { font-weight: bold; margin-bottom: 0.5rem; }
</style>
</head>
<body>
<h1>Rollout under load: ${escape(result.builds.from)} → ${escape(result.builds.to)}</h1>
<p>${escape(result.settings.description ?? HAPROXY_DESCRIPTION)} Generated ${escape(generatedAt)}.</p>
<table>${rows}</table>
<figure id="chart">
<figcaption>${escape(chartCaption(result))}</figcaption>
${rolloutChartSvg(result)}
</figure>
<h2>Timeline</h2>
<table>${events}</table>
</body>
</html>
`;
}

/** @param {RolloutResult} result */
function chartCaption(result) {
  const totals = trafficTotals(result.traffic);
  return `${totals.requests} requests, ${totals.serverErrors} 5xx, ${totals.connectionErrors} connection errors while ${result.builds.from} was replaced by ${result.builds.to}`;
}

/**
 * Writes `dir`/index.html, rollout.png (the chart, by Chromium) and result.json.
 * @param {RolloutResult} result
 * @param {string} dir
 * @returns {Promise<{ html: string, png: string }>}
 */
export async function writeRolloutReport(result, dir) {
  mkdirSync(dir, { recursive: true });
  const html = path.join(dir, 'index.html');
  const png = path.join(dir, 'rollout.png');
  writeFileSync(html, page(result, new Date().toISOString()));
  writeFileSync(path.join(dir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Twice the pixels: the PNG stays sharp on the high-density screens READMEs are read on.
    const tab = await browser.newPage({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 2 });
    await tab.goto(`file://${html}`);
    await tab.locator('#chart').screenshot({ path: png });
  } finally {
    await browser.close();
  }
  return { html, png };
}
