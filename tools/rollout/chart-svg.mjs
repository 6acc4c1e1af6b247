// The rollout over time as one SVG: answers per second by build, errors, each
// process's life in the load balancer, and when the browser switched.

const WIDTH = 1000;
const LEFT = 70;
const RIGHT = WIDTH - 20;
const BARS_TOP = 40;
const BARS_HEIGHT = 260;
const LANE_HEIGHT = 22;
const LANE_GAP = 8;
const COLORS = { from: '#4c78a8', to: '#f58518', error: '#d62728', browser: '#2ca02c', grid: '#ddd', text: '#333' };
/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** @typedef {import('./scenario.mjs').RolloutResult} RolloutResult */
/** @typedef {import('./scenario.mjs').RolloutEvent} RolloutEvent */
/** @typedef {(second: number) => number} Scale seconds to the chart's x */

/**
 * `value` as text inside HTML or SVG.
 * @param {unknown} value
 */
export const escapeMarkup = (value) => String(value).replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);
/**
 * @param {number} x
 * @param {number} y
 * @param {string | number} content
 */
const text = (x, y, content, attrs = '', fill = COLORS.text) =>
  `<text x="${x}" y="${y}" font-size="12" fill="${fill}" ${attrs}>${escapeMarkup(content)}</text>`;
/**
 * @param {number} x
 * @param {number} y
 * @param {number} width
 * @param {number} height
 * @param {string} fill
 */
const rect = (x, y, width, height, fill, attrs = '') =>
  `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0, width).toFixed(1)}" height="${Math.max(0, height).toFixed(1)}" fill="${fill}" ${attrs}/>`;

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
    parts.push(`<line x1="${LEFT}" x2="${RIGHT}" y1="${y(tick)}" y2="${y(tick)}" stroke="${COLORS.grid}"/>`);
    parts.push(text(LEFT - 8, y(tick) + 4, tick, 'text-anchor="end"'));
  }
  for (let second = 0; second <= seconds; second += 5)
    parts.push(text(x(second), BARS_TOP + BARS_HEIGHT + 16, `${second}s`, 'text-anchor="middle"'));
  parts.push(
    text(
      12,
      BARS_TOP + BARS_HEIGHT / 2,
      'requests / s',
      `transform="rotate(-90 12 ${BARS_TOP + BARS_HEIGHT / 2})" text-anchor="middle" dominant-baseline="hanging"`,
    ),
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
      parts.push(rect(x(bucket.second), y(stacked + count), width, y(stacked) - y(stacked + count), color));
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
    const span = (/** @type {number} */ from, /** @type {number} */ to, /** @type {string} */ color, attrs = '') =>
      known(from, to) ? rect(x(from), laneTop, x(to) - x(from), LANE_HEIGHT, color, attrs) : '';
    const label = (/** @type {number} */ at, /** @type {string} */ words, attrs = '') =>
      known(at) ? text(x(at) + 4, laneTop + 15, words, attrs) : '';
    return [
      text(LEFT - 8, laneTop + 15, slot, 'text-anchor="end"'),
      span(0, sigterm, COLORS.from),
      span(sigterm, outOfRotation, COLORS.from, 'opacity="0.6"'),
      span(outOfRotation, exited, COLORS.from, 'opacity="0.25"'),
      span(inRotation, seconds, COLORS.to),
      label(sigterm, 'draining'),
      known(exited, inRotation) ? text((x(exited) + x(inRotation)) / 2, laneTop + 15, 'starting', 'text-anchor="middle"') : '',
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
        `<line x1="${lineX}" x2="${lineX}" y1="${labelY + 3}" y2="${bottom}" stroke="${color}" stroke-dasharray="4 3"/>`,
        // A white outline keeps a label readable where another marker's line crosses it.
        text(lineX + 3, labelY, markerLabel(event), 'stroke="#fff" stroke-width="3" paint-order="stroke"', color),
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
  const swatches = items.map(
    ([color, label], index) => `${rect(LEFT + index * 200, y - 10, 12, 12, color)}${text(LEFT + index * 200 + 18, y, label)}`,
  );
  const lanes = text(
    LEFT,
    y + 20,
    "Lanes: dark, in haproxy's rotation; middle, draining and still in it; pale, draining out of it; gap, no process.",
  );
  return [...swatches, lanes].join('\n');
}

/**
 * The whole chart for a result of runRollout.
 * @param {RolloutResult} result
 */
export function rolloutChartSvg(result) {
  const seconds = result.traffic.buckets.length;
  /** @type {Scale} */
  const x = (second) => LEFT + (second / seconds) * (RIGHT - LEFT);
  const lanesTop = BARS_TOP + BARS_HEIGHT + 32;
  const laneView = lanes(result, x, seconds, lanesTop);
  const bottom = lanesTop + laneView.height;
  const height = bottom + 50;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    bars(result, x, seconds),
    laneView.svg,
    markers(result, x, bottom),
    legend(result, bottom + 20),
    '</svg>',
  ].join('\n');
}
