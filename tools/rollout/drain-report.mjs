// rollout-report/ for a drain: one SVG (answers and failures each second above, the Ready
// pods on each node below, the drain's moments as marks), an HTML page around it with the
// drain's own output, and the raw result as JSON. The autoscaling test draws its run the
// same way: the load against the pods.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { escapeMarkup as escape, legend, line, linearScale, rect, svgDocument, text } from '../lib/svg.mjs';
import { trafficTotals } from './traffic-totals.mjs';

/** @typedef {Awaited<ReturnType<typeof import('./drain-scenario.mjs').drainUnderLoad>>} DrainResult */
/**
 * A run under load with the Ready pods per node sampled; `drained` names the node drawn apart.
 * @typedef {Pick<DrainResult, 'traffic' | 'events' | 'nodes'> & { samples: { at: number, perNode: Record<string, number> }[], drained?: string }} PodsUnderLoad
 */

const WIDTH = 960;
const PLOT = { left: 140, right: 20, top: 30, height: 180 };
const LANE = { top: 250, height: 34, gap: 10 };
const COLOURS = { ok: '#2f6fb0', failed: '#c93c3c', pods: '#2e9d4f', drained: '#d9822b', mark: '#555', grid: '#0002' };

/** @param {PodsUnderLoad} result */
export function podsUnderLoadSvg(result) {
  const { buckets } = result.traffic;
  const endSecond = Math.max(buckets.length, ...result.events.map((event) => event.at / 1000)) + 1;
  const x = linearScale([0, endSecond], [PLOT.left, WIDTH - PLOT.right]);
  const highest = Math.max(1, ...buckets.map((bucket) => bucket.requests));
  const y = linearScale([0, highest * 1.15], [PLOT.top + PLOT.height, PLOT.top]);
  const parts = [text(PLOT.left, 16, `answers (blue) and failed requests (red) each second; Ready pods per node below`)];
  for (const tick of [0, Math.round(highest / 2), highest])
    parts.push(
      line(PLOT.left, y(tick), WIDTH - PLOT.right, y(tick), { stroke: COLOURS.grid }),
      text(PLOT.left - 6, y(tick) + 4, tick, { 'text-anchor': 'end' }),
    );
  const width = x(1) - x(0) - 1;
  for (const bucket of buckets) {
    const failed = bucket.serverErrors + bucket.connectionErrors + bucket.otherStatuses;
    parts.push(rect({ x: x(bucket.second), y: y(bucket.ok), width, height: y(0) - y(bucket.ok), fill: COLOURS.ok }));
    if (failed)
      parts.push(
        rect({ x: x(bucket.second), y: y(bucket.ok + failed), width, height: y(bucket.ok) - y(bucket.ok + failed), fill: COLOURS.failed }),
      );
  }
  const most = Math.max(1, ...result.samples.flatMap((sample) => Object.values(sample.perNode)));
  result.nodes.forEach((node, index) => {
    const top = LANE.top + index * (LANE.height + LANE.gap);
    const colour = node === result.drained ? COLOURS.drained : COLOURS.pods;
    parts.push(
      text(PLOT.left - 6, top + LANE.height / 2 + 4, node, { 'text-anchor': 'end' }),
      line(PLOT.left, top + LANE.height, WIDTH - PLOT.right, top + LANE.height, { stroke: COLOURS.grid }),
    );
    result.samples.forEach((sample, sampleIndex) => {
      const count = sample.perNode[node] ?? 0;
      if (!count) return;
      const until = result.samples[sampleIndex + 1]?.at ?? sample.at + 500;
      const height = (count / most) * LANE.height;
      parts.push(
        rect({
          x: x(sample.at / 1000),
          y: top + LANE.height - height,
          width: Math.max(1, x(until / 1000) - x(sample.at / 1000)),
          height,
          fill: colour,
          title: `${node}: ${count} Ready at ${(sample.at / 1000).toFixed(1)} s`,
        }),
      );
    });
  });
  const bottom = LANE.top + result.nodes.length * (LANE.height + LANE.gap);
  for (const event of result.events) {
    const at = x(event.at / 1000);
    parts.push(line(at, PLOT.top, at, bottom, { stroke: COLOURS.mark, 'stroke-dasharray': '4 3', title: event.label }));
  }
  for (let second = 0; second <= endSecond; second += 5)
    parts.push(text(x(second), bottom + 14, `${second}s`, { 'text-anchor': 'middle' }));
  /** @type {[string, string][]} */
  const keys = [
    [COLOURS.ok, 'answered'],
    [COLOURS.failed, 'failed'],
    [COLOURS.pods, `Ready pods (lane full: ${most})`],
  ];
  if (result.drained) keys.push([COLOURS.drained, 'on the drained node']);
  parts.push(legend(keys, { x: PLOT.left, y: bottom + 36, spacing: 180 }));
  return svgDocument({ width: WIDTH, height: bottom + 50, fontSize: 12 }, parts);
}

/** @param {DrainResult} result @param {string} dir */
export function writeDrainReport(result, dir) {
  mkdirSync(dir, { recursive: true });
  const svg = podsUnderLoadSvg(result);
  const totals = trafficTotals(result.traffic);
  const rows = [
    ['Requests', `${totals.requests} (${result.settings.ratePerSecond}/s through ${result.settings.via})`],
    ['5xx', totals.serverErrors],
    ['Connection errors', `${totals.connectionErrors}${totals.connectionErrors ? ` ${JSON.stringify(result.traffic.errorCodes)}` : ''}`],
    ['Other statuses', totals.otherStatuses],
    ['Drained', result.drained],
    ['Ready pods per node before', JSON.stringify(result.samples[0]?.perNode ?? {})],
    ['Ready pods per node after', JSON.stringify(result.samples.at(-1)?.perNode ?? {})],
  ];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Meridian: a node drained under load</title></head>
<body style="font-family: sans-serif; max-width: 980px; margin: 2rem auto">
<h1>A node drained under load</h1>
<table>${rows.map(([name, value]) => `<tr><th style="text-align: left">${escape(name)}</th><td>${escape(value)}</td></tr>`).join('')}</table>
${svg}
<h2>Timeline</h2>
<ul>${result.events.map((event) => `<li>${(event.at / 1000).toFixed(1)} s: ${escape(event.label)}</li>`).join('')}</ul>
<h2>kubectl drain</h2>
<pre>${escape(`${result.drain.stdout}${result.drain.stderr}`)}</pre>
</body></html>
`;
  const files = { html: path.join(dir, 'index.html'), svg: path.join(dir, 'drain.svg'), json: path.join(dir, 'result.json') };
  writeFileSync(files.svg, svg);
  writeFileSync(files.html, html);
  writeFileSync(files.json, `${JSON.stringify(result, null, 2)}\n`);
  return files;
}
