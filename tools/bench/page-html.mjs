// What a page's raw HTML is made of: the markup a visitor reads, the inline <style>, the
// page data Next inlines for React (its RSC payload, `self.__next_f.push([1, …])`) and
// other scripts; and within the page data, what its largest rows hold.
import { runInNewContext } from 'node:vm';
import { payloadRows } from '../../src/build/inline-page-data.mjs';
import { heading, kib, log, round } from './util.mjs';

/** The budget of each page's raw HTML. */
export const HTML_BUDGET_KIB = 40;
const PUSH_SCRIPT = /<script>(self\.__next_f\.push\(\[1,[\s\S]*?\]\))<\/script>/g;
const SCRIPT = /<script[^>]*>[\s\S]*?<\/script>/g;
const STYLE = /<style[^>]*>[\s\S]*?<\/style>/g;
const STYLE_TEXT_REFERENCE = /"\$","style",[^{]*\{[^{}]*?"children":"\$([0-9a-f]+)"/g;

const bytes = (/** @type {string} */ text) => Buffer.byteLength(text);
const total = (/** @type {string[]} */ parts) => parts.reduce((sum, part) => sum + bytes(part), 0);

/**
 * The payload text each push script hands React, read by running the scripts as a
 * browser would (Next writes JSON strings; our build single-quoted ones).
 * @param {string} html
 */
export function payloadText(html) {
  const self = { __next_f: /** @type {unknown[][]} */ ([]) };
  for (const [, push] of html.matchAll(PUSH_SCRIPT)) runInNewContext(push ?? '', { self }, { timeout: 1000 });
  return self.__next_f.map((entry) => (typeof entry[1] === 'string' ? entry[1] : '')).join('');
}

/**
 * The parts of a page's HTML in bytes, and its page data's rows by kind: text rows of
 * stylesheets (React's copy of CSS the <style> carries), other text rows (long strings
 * such as a data: URL), client component references (`I[…]`), and the element tree.
 * @param {string} html
 */
export function readPageHtml(html) {
  const pushes = [...html.matchAll(PUSH_SCRIPT)].map((match) => match[0]);
  const styles = [...html.matchAll(STYLE)].map((match) => match[0]);
  const scripts = [...html.matchAll(SCRIPT)].map((match) => match[0]);
  const rows = payloadRows(payloadText(html));
  const stylesheetRows = new Set(rows.flatMap((row) => [...(row.line ?? '').matchAll(STYLE_TEXT_REFERENCE)].map((match) => match[1])));
  const kindOf = (/** @type {{ id: string, text?: string, line?: string }} */ row) => {
    if (row.text !== undefined) return stylesheetRows.has(row.id) ? 'stylesheet text' : 'other text';
    return /^I\[/.test(row.line ?? '') ? 'client references' : 'elements';
  };
  /** @type {Record<string, number>} */
  const byKind = { 'stylesheet text': 0, 'other text': 0, 'client references': 0, elements: 0 };
  const sized = rows.map((row) => {
    const content = row.text ?? row.line ?? '';
    const kind = kindOf(row);
    byKind[kind] = (byKind[kind] ?? 0) + bytes(content);
    return { id: row.id, kind, bytes: bytes(content), start: content.slice(0, 80) };
  });
  const htmlBytes = bytes(html);
  const pageDataBytes = total(pushes);
  const styleBytes = total(styles);
  const otherScriptBytes = total(scripts) - pageDataBytes;
  return {
    bytes: htmlBytes,
    pageDataBytes,
    styleBytes,
    otherScriptBytes,
    markupBytes: htmlBytes - pageDataBytes - styleBytes - otherScriptBytes,
    pageDataRows: byKind,
    largestRows: sized.sort((a, b) => b.bytes - a.bytes).slice(0, 6),
  };
}

/** @typedef {ReturnType<typeof readPageHtml>} PageHtml */

/**
 * Fetches each page uncompressed (what the browser parses) and prints what it is made of.
 * @param {{ id: string, url: string }[]} pages
 */
export async function measurePageHtml(pages) {
  heading('Raw HTML of each page (what the browser parses before the first paint)');
  const results = [];
  for (const page of pages) {
    const response = await fetch(page.url, { headers: { 'Accept-Encoding': 'identity' } });
    const html = await response.text();
    const anatomy = readPageHtml(html);
    const k = (/** @type {number} */ n) => `${round(kib(n), 1)} KiB`;
    log(
      `  ${page.id.padEnd(6)} ${k(anatomy.bytes)}: markup ${k(anatomy.markupBytes)}, inline CSS ${k(anatomy.styleBytes)}, ` +
        `page data ${k(anatomy.pageDataBytes)}, other scripts ${k(anatomy.otherScriptBytes)}`,
    );
    log(
      `         page data rows: ${Object.entries(anatomy.pageDataRows)
        .map(([kind, size]) => `${kind} ${k(size)}`)
        .join(', ')}`,
    );
    for (const row of anatomy.largestRows) log(`         row ${row.id} (${row.kind}) ${k(row.bytes)}: ${row.start}`);
    results.push({ id: page.id, url: page.url, status: response.status, ...anatomy });
  }
  return results;
}
