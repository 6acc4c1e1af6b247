// rollout-report/ for a canary release: one SVG (the share of answers per build each second,
// each analysis run as a bar coloured by its verdict, the tabs' moves and the Rollout's steps
// as marks), an HTML page around it with the timeline, and the raw result as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { circle, element, escapeMarkup as escape, legend as drawLegend, line, linearScale, rect, svgDocument, text } from '../lib/svg.mjs';
import { trafficTotals } from './traffic-totals.mjs';

/** @typedef {Awaited<ReturnType<typeof import('./canary-demo.mjs').runCanaryDemo>>} CanaryResult */

const WIDTH = 960;
const PLOT = { left: 50, right: 20, top: 20, height: 220 };
const LANES = { analysis: 270, tabs: 310, steps: 350 };
const HEIGHT = 390;
const BUILD_COLOURS = ['#2f6fb0', '#d9822b', '#7b5ea7', '#888'];
const VERDICT_COLOURS = /** @type {Record<string, string>} */ ({
  Successful: '#2e9d4f',
  Failed: '#c93c3c',
  Error: '#c93c3c',
  Inconclusive: '#c9a23c',
  Running: '#9aa5b1',
});

/**
 * The chart: x is seconds since the load started.
 * @param {CanaryResult} result
 */
export function canaryChartSvg(result) {
  const { buckets } = result.traffic;
  const endSecond = Math.max(buckets.length, ...result.events.map((event) => event.at / 1000)) + 1;
  const x = linearScale([0, endSecond], [PLOT.left, WIDTH - PLOT.right]);
  const y = linearScale([1, 0], [PLOT.top, PLOT.top + PLOT.height]);
  const builds = Object.keys(trafficTotals(result.traffic).builds).sort();
  const colour = (/** @type {string} */ build) => BUILD_COLOURS[Math.max(0, builds.indexOf(build)) % BUILD_COLOURS.length] ?? '#888';
  const parts = [text(PLOT.left, 12, `share of answers per build, each second (seconds 0–${Math.round(endSecond)})`)];
  // Stacked shares, one column per second.
  for (const bucket of buckets) {
    const answered = Object.values(bucket.builds).reduce((sum, count) => sum + count, 0);
    let below = 0;
    for (const build of builds) {
      const share = answered ? (bucket.builds[build] ?? 0) / answered : 0;
      if (share === 0) continue;
      parts.push(rect({ x: x(bucket.second), y: y(below + share), width: x(1) - x(0), height: PLOT.height * share, fill: colour(build) }));
      below += share;
    }
    if (bucket.serverErrors + bucket.connectionErrors > 0)
      parts.push(
        circle(
          x(bucket.second + 0.5),
          PLOT.top - 6,
          3,
          '#c93c3c',
          `${bucket.serverErrors} 5xx, ${bucket.connectionErrors} connection errors`,
        ),
      );
  }
  for (const share of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      line(PLOT.left, y(share), WIDTH - PLOT.right, y(share), { stroke: '#0002' }),
      text(PLOT.left - 6, y(share) + 4, `${share * 100}%`, { 'text-anchor': 'end' }),
    );
  // Analyses: from their start to their verdict.
  const seconds = (/** @type {number} */ at) => (at - result.startedAt) / 1000;
  for (const run of result.analyses) {
    const from = seconds(run.startedAt);
    const to = run.endedAt ? seconds(run.endedAt) : endSecond;
    const fill = VERDICT_COLOURS[run.phase] ?? '#999';
    parts.push(
      rect({
        x: x(from),
        y: LANES.analysis - 12,
        width: Math.max(2, x(to) - x(from)),
        height: 16,
        fill,
        title: `${run.name}: ${run.phase}`,
      }),
      text(x(from) + 4, LANES.analysis, `${run.build} ${run.phase}`, { fill: '#fff' }),
    );
  }
  for (const event of result.events) {
    const at = x(event.at / 1000);
    if (event.kind === 'tab-moved' || event.kind === 'tab-opened')
      parts.push(
        element(
          'path',
          { d: `M${at.toFixed(1)},${LANES.tabs - 8} l5,8 l-5,8 l-5,-8 z`, fill: colour(event.build ?? '') },
          { title: event.label },
        ),
      );
    if (event.kind === 'canary-step') parts.push(line(at, LANES.steps - 10, at, LANES.steps + 6, { stroke: '#333', title: event.label }));
  }
  for (const [label, top] of /** @type {[string, number][]} */ ([
    ['analysis runs', LANES.analysis],
    ['tabs (opened, moved)', LANES.tabs],
    ['Rollout changes', LANES.steps],
  ]))
    parts.push(text(PLOT.left, top - 16, label));
  parts.push(
    drawLegend(
      builds.map((build) => [colour(build), build]),
      { x: PLOT.left, y: HEIGHT - 5, spacing: 160, size: 10 },
    ),
  );
  return svgDocument({ width: WIDTH, height: HEIGHT, fontSize: 11 }, parts);
}

/**
 * Writes index.html, canary.svg and result.json into `dir`; resolves with their paths.
 * @param {CanaryResult} result
 * @param {string} dir
 */
export function writeCanaryReport(result, dir) {
  mkdirSync(dir, { recursive: true });
  const svg = canaryChartSvg(result);
  const totals = trafficTotals(result.traffic);
  const rows = [
    ['Requests', totals.requests],
    ['5xx', totals.serverErrors],
    ['Connection errors', totals.connectionErrors],
    [
      'Answered by',
      Object.entries(totals.builds)
        .map(([build, count]) => `${build} ${count}`)
        .join(', '),
    ],
    ['Analyses', result.analyses.map((run) => `${run.name}: ${run.phase}`).join(', ')],
    ['Tabs', result.tabs.map((tab) => `${tab.path}: ${[tab.firstBuild, ...tab.reloads].join(' → ')}`).join('; ')],
    [
      'Failures browsers reported',
      `chunks ${result.browserFailures.chunks}, payload and build file fetches ${result.browserFailures.fetches}, locale loads ${result.browserFailures.locales}`,
    ],
  ];
  const timeline = result.events.map((event) => `<li>${(event.at / 1000).toFixed(1)} s: ${escape(event.label)}</li>`).join('');
  const html = `<!doctype html><meta charset="utf-8"><title>Canary release</title><h1>Canary release</h1><table>${rows
    .map(([name, value]) => `<tr><th align="left">${escape(String(name))}</th><td>${escape(String(value))}</td></tr>`)
    .join(
      '',
    )}</table>${svg}<h2>Timeline</h2><ol>${timeline}</ol><h2>kubectl argo rollouts get rollout</h2><pre>${escape(result.rolloutView)}</pre>`;
  const files = { html: path.join(dir, 'index.html'), svg: path.join(dir, 'canary.svg'), json: path.join(dir, 'result.json') };
  writeFileSync(files.html, html);
  writeFileSync(files.svg, svg);
  writeFileSync(files.json, `${JSON.stringify(result, null, 2)}\n`);
  return files;
}
