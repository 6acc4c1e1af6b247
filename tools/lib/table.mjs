// The one table writer: a Markdown table, compact for a doc (docs/cluster.md's versions, the
// chart README's values) or with its columns aligned for a terminal and a text report (the
// bench's summary, the game day's faults).

/** A cell's text, kept on one line and from ending its cell early. @param {string | number} text */
const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * @param {string[]} header
 * @param {(string | number)[][]} rows
 * @param {{ aligned?: boolean }} [options] `aligned`: every column padded to its widest cell
 */
export function markdownTable(header, rows, { aligned = false } = {}) {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => (aligned ? Math.max(3, ...cells.map((row) => row[column]?.length ?? 0)) : 3));
  const line = (/** @type {string[]} */ row) =>
    `| ${row.map((text, column) => (aligned ? text.padEnd(widths[column] ?? 0) : text)).join(' | ')} |`;
  const rule = aligned ? `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|` : `|${header.map(() => '---').join('|')}|`;
  return [line(cells[0] ?? []), rule, ...cells.slice(1).map(line)].join('\n');
}
