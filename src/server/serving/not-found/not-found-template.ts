import { createHash, type Hash } from 'node:crypto';
import { DEFAULT_LOCALE, localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';
import { displayedPath } from '@/shared/displayed-path';
import { inlineScriptRanges, scriptHashSource } from '@/server/serving/edge/content-security-policy';

/**
 * The path segment the not-found page is rendered for once per locale at
 * start-up. Every place it appears in that HTML is one of the contexts below,
 * so a request's own path can be put in its place without rendering again.
 */
export const TEMPLATE_MARKER = 'meridian-not-found-template-path';

/**
 * Paths the template can stand for: non-empty segments of URL path characters.
 * `$` is left out because React's payload escapes strings starting with it, and
 * long paths because React moves long strings out of the payload row; anything
 * else goes to Next, which renders it in full.
 */
const TEMPLATE_PATH = /^(?:\/[A-Za-z0-9\-._~!&'()*+,;=:@%]+)+$/;
const MAX_TEMPLATE_PATH_LENGTH = 1000;

/** Where the path appears: which form of it, in HTML or in the inline router payload. */
type Slot = 'shown-html' | 'shown-payload' | 'link-html' | 'link-payload' | 'segments-payload';

export interface NotFoundTemplate {
  locale: Locale;
  /** The HTML around the slots: `pieces.length === slots.length + 1`. */
  pieces: string[];
  /** The same pieces as UTF-8, encoded once: a 404 encodes only the path's own values. */
  encodedPieces: Buffer[];
  slots: Slot[];
  /** Its inline scripts, for the page's Content-Security-Policy. */
  scripts: TemplateScript[];
}

/**
 * An inline script of the template: its hash when the path never appears in it,
 * else the hash of its text up to the first slot, ready to go on (`Hash.copy()`),
 * and the rest of its text around the slots (a number is the index of a slot),
 * hashed for each answer.
 */
type TemplateScript = { hash: string } | { start: Hash; parts: (string | number)[] };

export class TemplateError extends Error {}

const PAYLOAD_LINK = /\\"href\\":\\"[^"\\]*$/;
const HTML_LINK = /href="[^"]*$/;
const PAYLOAD_SEGMENTS = /\\"c\\":\[(?:\\"[^"\\]*\\",)*\\"$/;

function slotAt(html: string, index: number, prefix: string): Slot {
  const inPayload = html.lastIndexOf('<script', index) > html.lastIndexOf('</script', index);
  const before = html.slice(Math.max(0, index - 200), index);
  if (inPayload) {
    if (PAYLOAD_SEGMENTS.test(before)) return 'segments-payload';
    if (PAYLOAD_LINK.test(before)) return 'link-payload';
    if (before.endsWith(prefix)) return 'shown-payload';
  } else {
    if (HTML_LINK.test(before)) return 'link-html';
    if (before.endsWith(prefix)) return 'shown-html';
  }
  throw new TemplateError(`the not-found page shows its path in an unknown place: …${before.slice(-60)}`);
}

/** Splits the not-found HTML rendered for `TEMPLATE_MARKER` in `locale` at each place the path appears. */
export function compileNotFoundTemplate(html: string, locale: Locale): NotFoundTemplate {
  const prefix = localizedPath(locale, '/');
  const shownPrefix = locale === DEFAULT_LOCALE ? '/' : `${prefix}/`;
  const pieces: string[] = [];
  const slots: Slot[] = [];
  const markers: number[] = [];
  let from = 0;
  for (let index = html.indexOf(TEMPLATE_MARKER); index !== -1; index = html.indexOf(TEMPLATE_MARKER, from)) {
    slots.push(slotAt(html, index, shownPrefix));
    markers.push(index);
    pieces.push(html.slice(from, index));
    from = index + TEMPLATE_MARKER.length;
  }
  pieces.push(html.slice(from));
  for (const needed of ['shown-html', 'shown-payload', 'segments-payload'] as const) {
    if (!slots.includes(needed)) throw new TemplateError(`the not-found page has no ${needed} slot`);
  }
  return { locale, pieces, encodedPieces: pieces.map((piece) => Buffer.from(piece)), slots, scripts: templateScripts(html, markers) };
}

/** The template's inline scripts, each hashed now unless a slot (at `markers`) lies inside it. */
function templateScripts(html: string, markers: number[]): TemplateScript[] {
  return inlineScriptRanges(html).map(({ start, end }): TemplateScript => {
    const parts: (string | number)[] = [];
    let from = start;
    markers.forEach((marker, slot) => {
      if (marker < start || marker >= end) return;
      parts.push(html.slice(from, marker), slot);
      from = marker + TEMPLATE_MARKER.length;
    });
    if (parts.length === 0) return { hash: scriptHashSource(createHash('sha256').update(html.slice(start, end), 'utf8')) };
    parts.push(html.slice(from, end));
    const [before, ...rest] = parts;
    return { start: createHash('sha256').update(before as string, 'utf8'), parts: rest };
  });
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** React's escaping of text and attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * A string as it sits inside the inline router payload: a JSON string in a
 * payload row, that row in a JavaScript string, that script made HTML-safe.
 */
function escapePayload(value: string): string {
  const inRow = JSON.stringify(value).slice(1, -1);
  const inScript = JSON.stringify(inRow).slice(1, -1);
  return inScript.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether the template can stand for `requestedPath` in `locale` (otherwise Next renders it). */
export function fitsTemplate(requestedPath: string, locale: Locale): boolean {
  if (requestedPath.length > MAX_TEMPLATE_PATH_LENGTH || !TEMPLATE_PATH.test(requestedPath)) return false;
  const inside = pathWithinLocale(requestedPath);
  return inside !== '/' && localizedPath(locale, inside) === requestedPath;
}

/** What each slot holds for `requestedPath`. */
function slotValues(template: NotFoundTemplate, requestedPath: string): Record<Slot, string> {
  const inside = pathWithinLocale(requestedPath);
  const shownPrefix = template.locale === DEFAULT_LOCALE ? '/' : `/${template.locale}/`;
  const shown = displayedPath(requestedPath).slice(shownPrefix.length);
  const linked = inside.slice(0, 200).slice(1);
  const segments = inside.slice(1).split('/');
  return {
    'shown-html': escapeHtml(shown),
    'shown-payload': escapePayload(shown),
    'link-html': escapeHtml(linked),
    'link-payload': escapePayload(linked),
    'segments-payload': segments.map(escapePayload).join('\\",\\"'),
  };
}

/** The not-found page of `requestedPath` (a path `fitsTemplate` accepted), as Next would render it. */
export function fillNotFoundTemplate(template: NotFoundTemplate, requestedPath: string): string {
  const values = slotValues(template, requestedPath);
  let html = template.pieces[0] ?? '';
  template.slots.forEach((slot, index) => {
    html += values[slot] + (template.pieces[index + 1] ?? '');
  });
  return html;
}

/**
 * The hash sources of the inline scripts of `requestedPath`'s not-found page: the
 * scripts the path appears in (the router payload) are hashed now, the others were
 * at start-up.
 */
export function notFoundScriptHashes(template: NotFoundTemplate, requestedPath: string): string[] {
  const values = slotValues(template, requestedPath);
  return template.scripts.map((script) => {
    if ('hash' in script) return script.hash;
    const hash = script.start.copy();
    for (const part of script.parts) hash.update(typeof part === 'number' ? values[template.slots[part] as Slot] : part, 'utf8');
    return scriptHashSource(hash);
  });
}

/**
 * The same page as the bytes sent (`fillNotFoundTemplate`'s HTML in UTF-8), made of the
 * pieces encoded at start-up and the slots' few bytes: no page-sized string is built,
 * flattened and encoded for each 404. The pieces are cut at ASCII markers, so their
 * encodings join into the encoding of the whole.
 */
export function fillNotFoundBody(template: NotFoundTemplate, requestedPath: string): Buffer {
  const values = slotValues(template, requestedPath);
  const { encodedPieces, slots } = template;
  const parts: Buffer[] = [];
  for (let index = 0; index < encodedPieces.length; index += 1) {
    parts.push(encodedPieces[index] as Buffer);
    const slot = slots[index];
    if (slot !== undefined) parts.push(Buffer.from(values[slot]));
  }
  return Buffer.concat(parts);
}
