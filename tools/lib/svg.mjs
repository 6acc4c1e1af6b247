// The one report drawer's parts, shared by the rollout's chart, the canary's and the game day's
// timeline: escaped markup, elements with a tooltip, a linear scale, a legend and the document.
// No plotting library: Vega-Lite, the one that would make these charts declarative, brings
// Vega's 27 packages (and d3's) for three charts that these few functions draw.

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** `value` as text inside HTML or SVG. @param {unknown} value */
export const escapeMarkup = (value) => String(value).replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);

/** @typedef {Record<string, string | number | undefined>} Attributes */

/** Positions and sizes in pixels: a tenth of one is finer than a screen shows. */
const GEOMETRY = new Set(['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'width', 'height']);

/**
 * A number as an attribute's text: geometry to a tenth, anything else (an opacity, a stroke's
 * width) to three significant digits, so 0.25 stays 0.25.
 * @param {string} name @param {number} value
 */
const numberText = (name, value) => Number(GEOMETRY.has(name) ? value.toFixed(1) : value.toPrecision(3));

/** @param {Attributes} attributes */
const attributeText = (attributes) =>
  Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeMarkup(typeof value === 'number' ? numberText(name, value) : value)}"`)
    .join('');

/**
 * An SVG element: its attributes, then a tooltip (`title`) and text content, both escaped.
 * @param {string} name @param {Attributes} attributes @param {{ title?: string, content?: string | number }} [inside]
 */
export function element(name, attributes, { title, content } = {}) {
  const body = `${title === undefined ? '' : `<title>${escapeMarkup(title)}</title>`}${content === undefined ? '' : escapeMarkup(content)}`;
  return body ? `<${name}${attributeText(attributes)}>${body}</${name}>` : `<${name}${attributeText(attributes)}/>`;
}

/** @param {number} x @param {number} y @param {string | number} content @param {Attributes} [attributes] */
export const text = (x, y, content, attributes = {}) => element('text', { x, y, ...attributes }, { content });

/**
 * A rectangle, never of negative size.
 * @param {{ x: number, y: number, width: number, height: number, fill: string, title?: string } & Attributes} rectangle
 */
export const rect = ({ width, height, title, ...attributes }) =>
  element('rect', { ...attributes, width: Math.max(0, width), height: Math.max(0, height) }, { title });

/** @param {number} cx @param {number} cy @param {number} r @param {string} fill @param {string} [title] */
export const circle = (cx, cy, r, fill, title) => element('circle', { cx, cy, r, fill }, { title });

/**
 * @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2
 * @param {Attributes & { title?: string }} attributes
 */
export const line = (x1, y1, x2, y2, { title, ...attributes }) => element('line', { x1, y1, x2, y2, ...attributes }, { title });

/**
 * `[from, to]` mapped onto `[start, end]`, as a chart's axis maps seconds or shares to pixels.
 * @param {[number, number]} domain @param {[number, number]} range
 */
export const linearScale =
  ([from, to], [start, end]) =>
  (/** @type {number} */ value) =>
    start + ((value - from) / (to - from || 1)) * (end - start);

/**
 * A row of coloured swatches with their labels.
 * @param {[colour: string, label: string][]} items
 * @param {{ x: number, y: number, spacing: number, size?: number, textFill?: string }} at `y`: the labels' baseline
 */
export const legend = (items, { x, y, spacing, size = 12, textFill }) =>
  items
    .map(
      ([fill, label], index) =>
        rect({ x: x + index * spacing, y: y - size + 2, width: size, height: size, fill }) +
        text(x + index * spacing + size + 6, y, label, { fill: textFill }),
    )
    .join('\n');

/**
 * The document: a white page of `width` × `height` holding `parts`.
 * @param {{ width: number, height: number, fontSize: number }} page @param {string[]} parts
 */
export const svgDocument = ({ width, height, fontSize }, parts) =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="${fontSize}">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
