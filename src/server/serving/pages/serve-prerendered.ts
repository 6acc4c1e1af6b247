import type { IncomingMessage, ServerResponse } from 'node:http';
import { VARY_BY_LANGUAGE_HEADER } from '@/shared/vary';
import type { PrerenderedPage } from './prerendered-pages';
import { isFresh, preferredCoding, type ContentCoding } from '@/server/serving/negotiation/negotiation';
import type { PageLoad } from './page-load';
import { setHeaderList, type HeaderList } from '@/server/serving/edge/security-headers';
import { ROUTER_VARY } from '@/server/serving/negotiation/vary';

/** Smallest first: what we send when the visitor likes several equally. */
const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

const VARY = `${ROUTER_VARY}, Accept-Encoding`;
const VARY_WITH_LANGUAGE = `${VARY}, ${VARY_BY_LANGUAGE_HEADER}`;

/**
 * Answers a page load of a prerendered page from memory, so no request reaches
 * React once the site is built. A 200 is written with one `writeHead` of
 * header lists built at start-up (`head`: the request's own and the security
 * headers). Returns false for anything else, having set nothing.
 */
export function servePrerendered(
  req: IncomingMessage,
  res: ServerResponse,
  load: PageLoad,
  pages: Map<string, PrerenderedPage>,
  head: HeaderList,
): boolean {
  const page = pages.get(load.decision.internalPathname);
  if (!page) return false;
  const vary = load.decision.variesByLanguage ? VARY_WITH_LANGUAGE : VARY;
  // The representation is chosen first: preconditions are evaluated against the selected one (RFC 9110 §13.2.1).
  const coding = preferredCoding(req, CODINGS);
  if (!coding) {
    // Even identity was refused (`identity;q=0`, `*;q=0`): RFC 9110 §12.5.3 allows a 406.
    setHeaderList(res, head);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', vary);
    res.statusCode = 406;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(req.method === 'HEAD' ? undefined : 'Not Acceptable: br, gzip or identity\n');
    return true;
  }
  if (isFresh(req, { etag: page.etags[coding], lastModified: page.lastModified })) {
    setHeaderList(res, head);
    setHeaderList(res, page.cacheHeaders[coding]);
    res.setHeader('Vary', vary);
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.writeHead(200, head.concat(page.bodyHeaders[coding], 'Vary', vary));
  res.end(req.method === 'HEAD' ? undefined : page.bodies[coding]);
  return true;
}
