import type { IncomingMessage, ServerResponse } from 'node:http';
import { decideRoute } from '@/i18n/routing';
import { LOCALE_COOKIE } from '@/shared/locale-cookie';
import type { PrerenderedPage } from '../prerendered-pages';
import { splitTarget } from './request-target';

/** The App Router answers the same URL with HTML or a router payload, by these headers. */
const ROUTER_HEADERS = ['rsc', 'next-router-prefetch', 'next-router-state-tree', 'next-router-segment-prefetch', 'next-action'];
const ROUTER_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

function isDocumentRequest(req: IncomingMessage, search: URLSearchParams): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (search.has('_rsc')) return false;
  return ROUTER_HEADERS.every((header) => req.headers[header] === undefined);
}

function pickEncoding(acceptEncoding: string | undefined): 'brotli' | 'gzip' | 'identity' {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'brotli';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

/**
 * Answers a page load of a prerendered page from memory, with the same locale
 * decision as the proxy (src/i18n/routing.ts), so no request reaches React once
 * the site is built. Returns false for anything else, which Next then handles.
 */
export function servePrerendered(req: IncomingMessage, res: ServerResponse, pages: Map<string, PrerenderedPage>): boolean {
  const { pathname, search } = splitTarget(req.url);
  if (!isDocumentRequest(req, search)) return false;
  const decision = decideRoute({
    pathname,
    cookie: cookieValue(req.headers.cookie, LOCALE_COOKIE),
    acceptLanguage: req.headers['accept-language'] ?? null,
    isDocument: true,
  });
  if (decision.kind !== 'serve') return false;
  const page = pages.get(decision.internalPathname);
  if (!page) return false;

  const encoding = pickEncoding(req.headers['accept-encoding']);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // Revalidate on every visit: a new build's HTML must never wait behind a cache.
  res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
  res.setHeader('ETag', page.etag);
  res.setHeader('Vary', `${ROUTER_VARY}, Accept-Encoding${decision.variesByLanguage ? ', Cookie, Accept-Language' : ''}`);
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
