// The rollout over time as one SVG: answers per second by build, errors, each
// process's life in the load balancer, and when the browser switched.
import { legend as drawLegend, line, linearScale, rect, svgDocument, text as svgText } from '../lib/svg.mjs';

const WIDTH = 1000;
const LEFT = 70;
const RIGHT = WIDTH - 20;
const BARS_TOP = 40;
const BARS_HEIGHT = 260;
const LANE_HEIGHT = 22;
const LANE_GAP = 8;
const COLORS = { from: '#4c78a8', to: '#f58518', error: '#d62728', browser: '#2ca02c', grid: '#ddd', text: '#333' };

/** @typedef {import('./scenario.mjs').RolloutResult} RolloutResult */
/** @typedef {import('./scenario.mjs').RolloutEvent} RolloutEvent */
/** @typedef {(second: number) => number} Scale seconds to the chart's x */

/** @param {number} x @param {number} y @param {string | number} content @param {import('../lib/svg.mjs').Attributes} [attributes] */
const text = (x, y, content, attributes = {}) => svgText(x, y, content, { fill: COLORS.text, ...attributes });

/**
 * Axis step and maximum: a half power of ten, and room above the highest bar.
 * @param {number} highest
 */
function axis(highest) {
  const step = 10 ** Math.floor(Math.log10(Math.max(highest, 2))) / 2;
  return { step, max: Math.ceil((highest * 1.15) / step) * step };
}

/**
 * Per second: stacked bars of answers by the old build, the new one, and errors.
 * @param {RolloutResult} result
 * @param {Scale} x
 * @param {number} seconds
 */
function bars(result, x, seconds) {
  const { buckets } = result.traffic;
  const { step, max } = axis(Math.max(...buckets.map((bucket) => bucket.requests)));
  const y = (/** @type {number} */ value) => BARS_TOP + BARS_HEIGHT - (value / max) * BARS_HEIGHT;
  const parts = [];
  for (let tick = 0; tick <= max; tick += step) {
    parts.push(line(LEFT, y(tick), RIGHT, y(tick), { stroke: COLORS.grid }));
    parts.push(text(LEFT - 8, y(tick) + 4, tick, { 'text-anchor': 'end' }));
  }
  for (let second = 0; second <= seconds; second += 5)
    parts.push(text(x(second), BARS_TOP + BARS_HEIGHT + 16, `${second}s`, { 'text-anchor': 'middle' }));
  const middle = BARS_TOP + BARS_HEIGHT / 2;
  parts.push(
    text(12, middle, 'requests / s', { transform: `rotate(-90 12 ${middle})`, 'text-anchor': 'middle', 'dominant-baseline': 'hanging' }),
  );
  const width = x(1) - x(0) - 1;
  for (const bucket of buckets) {
    const errors = bucket.serverErrors + bucket.connectionErrors + bucket.otherStatuses;
    let stacked = 0;
    /** @type {[number, string][]} */
    const stack = [
      [bucket.builds[result.builds.from] ?? 0, COLORS.from],
      [bucket.builds[result.builds.to] ?? 0, COLORS.to],
      [errors, COLORS.error],
    ];
    for (const [count, color] of stack) {
      parts.push(rect({ x: x(bucket.second), y: y(stacked + count), width, height: y(stacked) - y(stacked + count), fill: color }));
      stacked += count;
    }
  }
  return parts.join('\n');
}

/**
 * One lane per process slot, in seconds: the old build in haproxy's rotation,
 * draining while still in it, draining out of it, no process, the new build
 * in the rotation.
 * @param {RolloutEvent[]} events
 * @param {string} slot
 */
function slotPhases(events, slot) {
  const own = events.filter((event) => event.slot === slot);
  const second = (/** @type {(event: RolloutEvent) => boolean} */ predicate) => (own.find(predicate)?.at ?? NaN) / 1000;
  const sigterm = second((event) => event.kind === 'sigterm');
  return {
    sigterm,
    outOfRotation: second((event) => event.kind === 'rotation' && event.status === 'DOWN'),
    exited: second((event) => event.kind === 'exited'),
    // A lane with no SIGTERM is a process (a pod) that only ever ran the new build.
    inRotation: second((event) => event.kind === 'rotation' && event.status === 'UP' && !(event.at / 1000 <= sigterm)),
  };
}

/**
 * @param {RolloutResult} result
 * @param {Scale} x
 * @param {number} seconds
 * @param {number} top
 */
function lanes(result, x, seconds, top) {
  const slots = [...new Set(result.events.flatMap((event) => (event.slot ? [event.slot] : [])))].sort();
  const parts = slots.map((slot, index) => {
    const laneTop = top + index * (LANE_HEIGHT + LANE_GAP);
    const { sigterm, outOfRotation, exited, inRotation } = slotPhases(result.events, slot);
    // A phase a lane never had (no SIGTERM, no exit) draws nothing.
    const known = (/** @type {number[]} */ ...seconds) => seconds.every(Number.isFinite);
    const span = (/** @type {number} */ from, /** @type {number} */ to, /** @type {string} */ fill, opacity = 1) =>
      known(from, to) ? rect({ x: x(from), y: laneTop, width: x(to) - x(from), height: LANE_HEIGHT, fill, opacity }) : '';
    return [
      text(LEFT - 8, laneTop + 15, slot, { 'text-anchor': 'end' }),
      span(0, sigterm, COLORS.from),
      span(sigterm, outOfRotation, COLORS.from, 0.6),
      span(outOfRotation, exited, COLORS.from, 0.25),
      span(inRotation, seconds, COLORS.to),
      known(sigterm) ? text(x(sigterm) + 4, laneTop + 15, 'draining') : '',
      known(exited, inRotation) ? text((x(exited) + x(inRotation)) / 2, laneTop + 15, 'starting', { 'text-anchor': 'middle' }) : '',
    ].join('\n');
  });
  return { svg: parts.join('\n'), height: slots.length * (LANE_HEIGHT + LANE_GAP) };
}

/** @type {Partial<Record<import('./scenario.mjs').EventKind, (event: RolloutEvent) => string>>} */
const MARKER_LABELS = {
  sigterm: (event) => `SIGTERM ${event.slot}`,
  'tab-detected': (event) => `tab sees ${event.build}`,
  'tab-navigated': (event) => `next page: ${event.build}`,
};

/**
 * Vertical lines across the whole chart: each SIGTERM, and the browser's two moments.
 * @param {RolloutResult} result
 * @param {Scale} x
 * @param {number} bottom
 */
function markers(result, x, bottom) {
  const marked = result.events.flatMap((event) => {
    const markerLabel = MARKER_LABELS[event.kind];
    return markerLabel ? [{ event, markerLabel }] : [];
  });
  return marked
    .map(({ event, markerLabel }, index) => {
      const color = event.kind === 'sigterm' ? COLORS.text : COLORS.browser;
      const lineX = x(event.at / 1000);
      const labelY = BARS_TOP - 22 + (index % 2) * 13;
      return [
        line(lineX, labelY + 3, lineX, bottom, { stroke: color, 'stroke-dasharray': '4 3' }),
        // A white outline keeps a label readable where another marker's line crosses it.
        text(lineX + 3, labelY, markerLabel(event), { fill: color, stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke' }),
      ].join('\n');
    })
    .join('\n');
}

/**
 * @param {RolloutResult} result
 * @param {number} y
 */
function legend(result, y) {
  /** @type {[string, string][]} */
  const items = [
    [COLORS.from, `answered by ${result.builds.from}`],
    [COLORS.to, `answered by ${result.builds.to}`],
    [COLORS.error, 'not 200, or no answer'],
    [COLORS.browser, 'the open tab'],
  ];
  const lanes = "Lanes: dark, in haproxy's rotation; middle, draining and still in it; pale, draining out of it; gap, no process.";
  return `${drawLegend(items, { x: LEFT, y, spacing: 200, textFill: COLORS.text })}\n${text(LEFT, y + 20, lanes)}`;
}

/**
 * The whole chart for a result of runRollout.
 * @param {RolloutResult} result
 */
export function rolloutChartSvg(result) {
  const seconds = result.traffic.buckets.length;
  /** @type {Scale} */
  const x = linearScale([0, seconds], [LEFT, RIGHT]);
  const lanesTop = BARS_TOP + BARS_HEIGHT + 32;
  const laneView = lanes(result, x, seconds, lanesTop);
  const bottom = lanesTop + laneView.height;
  return svgDocument({ width: WIDTH, height: bottom + 50, fontSize: 12 }, [
    bars(result, x, seconds),
    laneView.svg,
    markers(result, x, bottom),
    legend(result, bottom + 20),
  ]);
}
