import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { decideRoute, isDocumentRequest, type RoutingDecision } from '@/i18n/routing';
import { LOCALE_COOKIE } from '@/shared/locale-cookie';

/**
 * What the server knows of a request's target once, at its start: the path
 * and query as sent (not `new URL()`, which would read `//evil.example` as a
 * host and normalise what the locale rules must see raw) and the locale
 * rules' decision (src/i18n/routing.ts), made here and nowhere else: the
 * pipeline, the metrics' route label and Next's proxy all read this one.
 */
export interface RequestRoute {
  pathname: string;
  /** After the `?`, as sent; empty without one. */
  query: string;
  decision: RoutingDecision;
  /** A top-level page load rather than a router request or a prefetch (src/i18n/routing.ts). */
  isDocument: boolean;
  /** A browser's load of a page the rules serve: GET or HEAD, a document, not a router payload. */
  pageLoad: boolean;
  /**
   * A page load a browser made by navigating: the page views the server counts
   * (meridian_page_loads_total) and gives a page-view token to.
   */
  browserPageLoad: boolean;
}

/** One cookie of a Cookie header, as the proxy reads it. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** One request header as a string (repeated ones joined), for isDocumentRequest. */
function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A browser navigating says so, which load generators, probes and scripts don't, so the page
 * views counted are of pages that browsers (whose reports they divide) loaded. Browsers send
 * Sec-Fetch-Dest only to secure origins (HTTPS, localhost); over plain HTTP a navigation still
 * carries Upgrade-Insecure-Requests.
 */
function isNavigation(headers: IncomingHttpHeaders): boolean {
  const destination = headers['sec-fetch-dest'];
  return destination === undefined ? headers['upgrade-insecure-requests'] === '1' : destination === 'document';
}

/** Decides `req` (its `url` already in origin form) once. */
export function routeOf(req: IncomingMessage): RequestRoute {
  const target = req.url ?? '/';
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const pathname = path.startsWith('/') ? path : `/${path}`;
  const query = queryStart === -1 ? '' : target.slice(queryStart + 1);
  const isDocument = isDocumentRequest(req.headers, headerOf);
  const decision = decideRoute({
    pathname,
    // Only the root reads the language cookie: no other request pays for parsing it.
    cookie: pathname === '/' ? cookieValue(req.headers.cookie, LOCALE_COOKIE) : undefined,
    acceptLanguage: req.headers['accept-language'] ?? null,
    isDocument,
  });
  let pageLoad = decision.kind === 'serve' && isDocument && (req.method === 'GET' || req.method === 'HEAD');
  // `_rsc` marks a router payload whatever its headers say.
  if (pageLoad && query !== '') pageLoad = !new URLSearchParams(query).has('_rsc');
  return { pathname, query, decision, isDocument, pageLoad, browserPageLoad: pageLoad && isNavigation(req.headers) };
}
