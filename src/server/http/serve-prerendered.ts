import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PrerenderedPage } from '../pages/prerendered-pages';
import type { PageLoad } from './page-load';
import { ROUTER_VARY } from './vary';

function pickEncoding(acceptEncoding: string | undefined): 'brotli' | 'gzip' | 'identity' {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'brotli';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

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

  const encoding = pickEncoding(req.headers['accept-encoding']);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // Revalidate on every visit: a new build's HTML must never wait behind a cache.
  res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
  res.setHeader('ETag', page.etag);
  res.setHeader('Vary', `${ROUTER_VARY}, Accept-Encoding${load.decision.variesByLanguage ? ', Cookie, Accept-Language' : ''}`);
  if (req.headers['if-none-match'] === page.etag) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  const body = page[encoding];
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding === 'brotli' ? 'br' : 'gzip');
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
