import type { IncomingMessage, ServerResponse } from 'node:http';
import { decideRoute, isDocumentRequest } from '@/i18n/routing';
import type { NextHandler } from '@/server/next-app';
import { cookieValue } from '@/server/serving/pages/page-load';
import { LOCALE_COOKIE } from '@/shared/locale-cookie';

/**
 * Paths answered here: segments of letters, digits, `-`, `_` and `~`. No dot
 * (a file), no trailing or doubled slash, no escape and no query: Next looks at
 * each of those itself before its proxy runs, so those requests still go to it.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)+$/;

/**
 * Where the locale proxy (src/i18n/proxy.ts) would send this request with a
 * 308 (`/en` → `/`, `/en/x` → `/x`, `/JA` → `/ja`), decided by the proxy's own
 * rules (src/i18n/routing.ts); null for anything else, which Next answers.
 */
export function localeRedirectOf(req: IncomingMessage): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const url = req.url ?? '';
  if (!PLAIN_PATH.test(url)) return null;
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  // A router payload or prefetch, or a pages-router data request: Next's own handling.
  if (!isDocumentRequest(header) || header('x-nextjs-data') !== undefined) return null;
  const decision = decideRoute({
    pathname: url,
    cookie: cookieValue(req.headers.cookie, LOCALE_COOKIE),
    acceptLanguage: req.headers['accept-language'] ?? null,
    isDocument: true,
  });
  if (decision.kind !== 'redirect' || decision.status !== 308 || decision.rememberLocale || decision.variesByLanguage) return null;
  return decision.pathname;
}

/**
 * Next's handler behind the locale proxy's permanent redirects, answered
 * without Next: the same status, Location, Refresh and body Next sends for
 * them. A request Next handles allocates objects V8 keeps until its next full
 * collection (undici `Request`s with an abort signal, held by a
 * FinalizationRegistry), so under load each one grows the old generation;
 * see docs/performance.md.
 */
export function withLocaleRedirects(next: NextHandler): NextHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    const location = localeRedirectOf(req);
    if (location === null) return next(req, res);
    res.statusCode = 308;
    res.setHeader('Location', location);
    res.setHeader('Refresh', `0;url=${location}`);
    res.setHeader('Content-Length', Buffer.byteLength(location));
    res.end(req.method === 'HEAD' ? undefined : location);
    return Promise.resolve();
  };
}
