import type { IncomingMessage, ServerResponse } from 'node:http';
import { VARY_BY_LANGUAGE_HEADER } from '@/shared/vary';
import type { PrerenderedPage } from './prerendered-pages';
import { isFresh, preferredCoding, type ContentCoding } from '@/server/serving/negotiation/negotiation';
import type { PageLoad } from './page-load';
import { ROUTER_VARY } from '@/server/serving/negotiation/vary';

/** Smallest first: what we send when the visitor likes several equally. */
const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/**
 * Answers a page load of a prerendered page from memory, so no request reaches
 * React once the site is built. Returns false for anything else.
 */
export function servePrerendered(
  req: IncomingMessage,
  res: ServerResponse,
  load: PageLoad,
  pages: Map<string, PrerenderedPage>,
): boolean {
  const page = pages.get(load.decision.internalPathname);
  if (!page) return false;

  // Revalidate on every visit: a new build's HTML must never wait behind a cache.
  res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
  res.setHeader('ETag', page.etag);
  res.setHeader('Last-Modified', page.lastModified);
  res.setHeader('Vary', `${ROUTER_VARY}, Accept-Encoding${load.decision.variesByLanguage ? `, ${VARY_BY_LANGUAGE_HEADER}` : ''}`);
  if (isFresh(req, page)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  const coding = preferredCoding(req, CODINGS);
  if (!coding) {
    // Even identity was refused (`identity;q=0`, `*;q=0`): RFC 9110 §12.5.3 allows a 406.
    res.statusCode = 406;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(req.method === 'HEAD' ? undefined : 'Not Acceptable: br, gzip or identity\n');
    return true;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const body = coding === 'br' ? page.brotli : page[coding];
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
