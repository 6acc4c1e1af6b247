import type { IncomingMessage } from 'node:http';

/** What a GET or HEAD of a representation gets by its preconditions: itself, a 304, or a 412. */
export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

const ENTITY_TAG = /(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g;

/** The entity tags of an If-Match or If-None-Match list, or `*`; an unreadable list holds none. */
function entityTags(header: string): '*' | { weak: boolean; opaque: string }[] {
  if (header.trim() === '*') return '*';
  return [...header.matchAll(ENTITY_TAG)].map((match) => ({ weak: match[1] !== undefined, opaque: match[0].slice(match[1]?.length ?? 0) }));
}

function opaqueOf(etag: string): { weak: boolean; opaque: string } {
  return etag.startsWith('W/') ? { weak: true, opaque: etag.slice(2) } : { weak: false, opaque: etag };
}

/** An HTTP date as milliseconds, or NaN when it is none (then the condition is ignored, RFC 9110 §13.1.3). */
function httpDate(header: string | undefined): number {
  return header === undefined ? Number.NaN : Date.parse(header);
}

/**
 * RFC 9110 §13.2.2, in its order, for a GET or HEAD of the selected representation:
 * If-Match (strong comparison) or, without it, If-Unmodified-Since, false: 412; then
 * If-None-Match (weak comparison) or, without it, If-Modified-Since, false: 304. An origin
 * server evaluates them whatever the request's Cache-Control says: `no-cache` asks caches
 * on the way to revalidate, which is what a conditional request does (§13.2.1).
 */
export function evaluatePreconditions(req: IncomingMessage, validators: { etag: string; lastModified: string }): PreconditionOutcome {
  const { headers } = req;
  const current = opaqueOf(validators.etag);
  const modified = Date.parse(validators.lastModified);
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    const tags = entityTags(ifMatch);
    if (tags !== '*' && !tags.some((tag) => !tag.weak && !current.weak && tag.opaque === current.opaque)) return 'failed';
  } else {
    const unmodifiedSince = httpDate(headers['if-unmodified-since']);
    if (!Number.isNaN(unmodifiedSince) && modified > unmodifiedSince) return 'failed';
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = entityTags(ifNoneMatch);
    return tags === '*' || tags.some((tag) => tag.opaque === current.opaque) ? 'not-modified' : 'proceed';
  }
  const modifiedSince = httpDate(headers['if-modified-since']);
  return !Number.isNaN(modifiedSince) && modified <= modifiedSince ? 'not-modified' : 'proceed';
}
