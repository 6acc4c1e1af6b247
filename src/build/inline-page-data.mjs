// The page data Next inlines in a prerendered page: its RSC payload, as
// `self.__next_f.push([1, "…"])` scripts the browser hands to React. Two things in it cost
// bytes the visitor's browser parses before the first paint for nothing:
// - With `experimental.inlineCss`, the text of every stylesheet is in the HTML's <style> and a
//   second time in the payload (a third when an error boundary names the same stylesheet).
//   React needs a stylesheet's text only to insert it, and finds one the document carries by
//   its href (`style[data-href~=…]`), so those styles keep their href and lose their text.
// - Each push is a JSON string, where every `"` of the payload costs `\"`: written as a
//   single-quoted string instead, the same text takes about a tenth less.

const PUSH = /<script>self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)<\/script>/g;
const STYLE_HREFS = /<style[^>]*\sdata-href="([^"]*)"/g;
/** A `style` element of the payload whose text is a row (`"$1f"`) or inline (`".a{…}"`). */
const STYLE_ELEMENT = /\["\$","style","[^"]*",\{[^{}]*?"href":("(?:[^"\\]|\\.)*")[^{}]*?"children":("(?:[^"\\]|\\.)*")\}\]/g;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** @typedef {{ id: string, text?: string, line?: string }} PayloadRow */

/**
 * The rows of one push of RSC payload text: `id:T<hex byte length>,<text>` for a
 * text row, else `id:<json>\n`.
 * @param {string} text
 * @returns {PayloadRow[]}
 */
export function payloadRows(text) {
  const bytes = encoder.encode(text);
  /** @type {PayloadRow[]} */
  const rows = [];
  let at = 0;
  while (at < bytes.length) {
    const colon = bytes.indexOf(0x3a, at);
    if (colon < 0) throw new Error(`inline-page-data: a row without an id at byte ${at}`);
    const id = decoder.decode(bytes.subarray(at, colon));
    if (bytes[colon + 1] === 0x54 /* T */) {
      const comma = bytes.indexOf(0x2c, colon);
      const length = Number.parseInt(decoder.decode(bytes.subarray(colon + 2, comma)), 16);
      if (comma < 0 || !Number.isFinite(length) || comma + 1 + length > bytes.length) {
        throw new Error(`inline-page-data: text row ${id} runs past its push`);
      }
      rows.push({ id, text: decoder.decode(bytes.subarray(comma + 1, comma + 1 + length)) });
      at = comma + 1 + length;
    } else {
      const newline = bytes.indexOf(0x0a, colon);
      const end = newline < 0 ? bytes.length : newline;
      rows.push({ id, line: decoder.decode(bytes.subarray(colon + 1, end)) });
      at = end + 1;
    }
  }
  return rows;
}

/** @param {PayloadRow[]} rows */
function joinRows(rows) {
  return rows
    .map((row) =>
      row.text === undefined ? `${row.id}:${row.line}\n` : `${row.id}:T${encoder.encode(row.text).length.toString(16)},${row.text}`,
    )
    .join('');
}

/** @type {Record<string, string>} */
const SHORT_ESCAPES = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as a single-quoted JavaScript string that is safe inside a <script>: `<` is
 * escaped, so neither `</script>` nor `<!--` can appear, and so are the line terminators.
 * @param {string} text
 */
export function singleQuoted(text) {
  return `'${text.replace(/[\0-\x1f\\'<\u2028\u2029]/g, (character) => SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

/**
 * The rows of stylesheets whose text the document carries: each `style` element of the
 * payload with a carried href points to its text row (`"children":"$7"`).
 * @param {PayloadRow[][]} pushes
 * @param {Set<string>} carried
 */
function carriedTextRows(pushes, carried) {
  const ids = new Set();
  for (const row of pushes.flat()) {
    for (const [, href, children] of (row.line ?? '').matchAll(STYLE_ELEMENT)) {
      const child = JSON.parse(children ?? '""');
      if (carried.has(JSON.parse(href ?? '""')) && /^\$[0-9a-f]+$/.test(child)) ids.add(child.slice(1));
    }
  }
  return ids;
}

/**
 * `html` with its inline page data trimmed: the stylesheet text the document carries left
 * out, and every push written as a single-quoted string. What each push hands React is
 * otherwise the same text. Returns the page and the bytes saved.
 * @param {string} html
 * @returns {{ html: string, savedBytes: number }}
 */
export function trimInlinePageData(html) {
  const carried = new Set([...html.matchAll(STYLE_HREFS)].flatMap((match) => (match[1] ?? '').split(/\s+/).filter(Boolean)));
  const matches = [...html.matchAll(PUSH)];
  const pushes = matches.map((match) => payloadRows(JSON.parse(match[1] ?? '""')));
  const textRows = carriedTextRows(pushes, carried);
  let result = html;
  matches.forEach((match, index) => {
    const rows = (pushes[index] ?? []).map((row) => {
      if (row.text !== undefined) return textRows.has(row.id) ? { id: row.id, text: '' } : row;
      const line = (row.line ?? '').replace(STYLE_ELEMENT, (element, href, children) =>
        carried.has(JSON.parse(href)) && !JSON.parse(children).startsWith('$')
          ? element.replace(`"children":${children}`, '"children":""')
          : element,
      );
      return { id: row.id, line };
    });
    result = result.replace(match[0], () => `<script>self.__next_f.push([1,${singleQuoted(joinRows(rows))}])</script>`);
  });
  return { html: result, savedBytes: encoder.encode(html).length - encoder.encode(result).length };
}
