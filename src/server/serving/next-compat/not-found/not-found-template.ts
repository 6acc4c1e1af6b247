import { createHash, type Hash } from 'node:crypto';
import { parse as parseQuery, stringify as stringifyQuery } from 'node:querystring';
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

/**
 * A query the template can carry: URL query characters only (RFC 3986), as a browser sends
 * them, and short enough that React keeps the last segment with it in its payload row.
 */
const TEMPLATE_QUERY = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/;

/**
 * Where the path appears: which form of it, in HTML or in the inline router payload; and
 * where the query does (`query-payload`, the payload's `q`: empty in the template).
 */
type Slot = 'shown-html' | 'shown-payload' | 'link-html' | 'link-payload' | 'segments-payload' | 'query-payload';

export interface NotFoundTemplate {
  locale: Locale;
  /** The HTML around the slots: `pieces.length === slots.length + 1`. */
  pieces: string[];
  /** The same pieces as UTF-8, encoded once: a 404 encodes only the path's own values. */
  encodedPieces: Buffer[];
  slots: Slot[];
  /** Whether the template has a place for a query (else a path with one goes to Next). */
  acceptsQuery: boolean;
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
/** What follows the segments in the payload's first row: the end of `c`, then the empty query `q`. */
const AFTER_SEGMENTS = '\\"],\\"q\\":\\"';

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

/** A place in the HTML where a slot's value goes, replacing `length` characters (the marker, or nothing). */
interface Cut {
  index: number;
  length: number;
  slot: Slot;
}

/** Splits the not-found HTML rendered for `TEMPLATE_MARKER` in `locale` at each place the path appears, and where the query goes. */
export function compileNotFoundTemplate(html: string, locale: Locale): NotFoundTemplate {
  const prefix = localizedPath(locale, '/');
  const shownPrefix = locale === DEFAULT_LOCALE ? '/' : `${prefix}/`;
  const cuts: Cut[] = [];
  for (let index = html.indexOf(TEMPLATE_MARKER); index !== -1; index = html.indexOf(TEMPLATE_MARKER, index + TEMPLATE_MARKER.length)) {
    const slot = slotAt(html, index, shownPrefix);
    cuts.push({ index, length: TEMPLATE_MARKER.length, slot });
    const after = index + TEMPLATE_MARKER.length;
    if (slot === 'segments-payload' && html.startsWith(`${AFTER_SEGMENTS}\\"`, after)) {
      cuts.push({ index: after + AFTER_SEGMENTS.length, length: 0, slot: 'query-payload' });
    }
  }
  const slots = cuts.map((cut) => cut.slot);
  for (const needed of ['shown-html', 'shown-payload', 'segments-payload'] as const) {
    if (!slots.includes(needed)) throw new TemplateError(`the not-found page has no ${needed} slot`);
  }
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(html.slice(from, cut.index));
    from = cut.index + cut.length;
  }
  pieces.push(html.slice(from));
  return {
    locale,
    pieces,
    encodedPieces: pieces.map((piece) => Buffer.from(piece)),
    slots,
    acceptsQuery: slots.filter((slot) => slot === 'query-payload').length === 1,
    scripts: templateScripts(html, cuts),
  };
}

/** The template's inline scripts, each hashed now unless a slot (at `cuts`) lies inside it. */
function templateScripts(html: string, cuts: Cut[]): TemplateScript[] {
  return inlineScriptRanges(html).map(({ start, end }): TemplateScript => {
    const parts: (string | number)[] = [];
    let from = start;
    cuts.forEach((cut, slot) => {
      if (cut.index < start || cut.index >= end) return;
      parts.push(html.slice(from, cut.index), slot);
      from = cut.index + cut.length;
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

/**
 * A query as Next's router payload writes it: parsed into an object (a key's values
 * together, in the object's order), then written back as form data after the last
 * segment (`c`) and with `querystring`'s escapes as `q`. Empty strings for none.
 */
export interface PayloadQuery {
  inSegments: string;
  search: string;
}

export const NO_QUERY: PayloadQuery = { inSegments: '', search: '' };

export function payloadQuery(query: string): PayloadQuery {
  if (query === '') return NO_QUERY;
  const parsed = parseQuery(query);
  const form = new URLSearchParams();
  for (const [key, values] of Object.entries(parsed)) {
    for (const value of Array.isArray(values) ? values : [values ?? '']) form.append(key, value);
  }
  const inSegments = form.toString();
  const search = stringifyQuery(parsed);
  return { inSegments: inSegments && `?${inSegments}`, search: search && `?${search}` };
}

/**
 * Whether `template` can stand for `requestedPath` with `query` (after the `?`, empty for
 * none) in its locale (otherwise Next renders it).
 */
export function fitsTemplate(template: Pick<NotFoundTemplate, 'locale' | 'acceptsQuery'>, requestedPath: string, query = ''): boolean {
  const { locale } = template;
  if (requestedPath.length > MAX_TEMPLATE_PATH_LENGTH || !TEMPLATE_PATH.test(requestedPath)) return false;
  if (query !== '') {
    if (!template.acceptsQuery || !TEMPLATE_QUERY.test(query) || query.length > MAX_TEMPLATE_PATH_LENGTH) return false;
    const { inSegments, search } = payloadQuery(query);
    const lastSegment = requestedPath.slice(requestedPath.lastIndexOf('/') + 1);
    if (lastSegment.length + inSegments.length > MAX_TEMPLATE_PATH_LENGTH || search.length > MAX_TEMPLATE_PATH_LENGTH) return false;
  }
  const inside = pathWithinLocale(requestedPath);
  return inside !== '/' && localizedPath(locale, inside) === requestedPath;
}

/** What each slot holds for `requestedPath` and `query`: Next's router payload carries the query after the last segment, and as `q`. */
function slotValues(template: NotFoundTemplate, requestedPath: string, query: PayloadQuery): Record<Slot, string> {
  const inside = pathWithinLocale(requestedPath);
  const shownPrefix = template.locale === DEFAULT_LOCALE ? '/' : `/${template.locale}/`;
  const shown = displayedPath(requestedPath).slice(shownPrefix.length);
  const linked = inside.slice(0, 200).slice(1);
  const segments = inside.slice(1).split('/');
  segments[segments.length - 1] += query.inSegments;
  return {
    'query-payload': escapePayload(query.search),
    'shown-html': escapeHtml(shown),
    'shown-payload': escapePayload(shown),
    'link-html': escapeHtml(linked),
    'link-payload': escapePayload(linked),
    'segments-payload': segments.map(escapePayload).join('\\",\\"'),
  };
}

/** The not-found page of `requestedPath` and `query` (which `fitsTemplate` accepted), as Next would render it. */
export function fillNotFoundTemplate(template: NotFoundTemplate, requestedPath: string, query: PayloadQuery = NO_QUERY): string {
  const values = slotValues(template, requestedPath, query);
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
export function notFoundScriptHashes(template: NotFoundTemplate, requestedPath: string, query: PayloadQuery = NO_QUERY): string[] {
  const values = slotValues(template, requestedPath, query);
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
export function fillNotFoundBody(template: NotFoundTemplate, requestedPath: string, query: PayloadQuery = NO_QUERY): Buffer {
  const values = slotValues(template, requestedPath, query);
  const { encodedPieces, slots } = template;
  const parts: Buffer[] = [];
  for (let index = 0; index < encodedPieces.length; index += 1) {
    parts.push(encodedPieces[index] as Buffer);
    const slot = slots[index];
    if (slot !== undefined) parts.push(Buffer.from(values[slot]));
  }
  return Buffer.concat(parts);
}
