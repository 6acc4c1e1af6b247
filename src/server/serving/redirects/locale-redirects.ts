import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestRoute } from '@/server/serving/routing/request-route';

/**
 * Paths answered here: segments of letters, digits, `-`, `_` and `~`. No dot
 * (a file), no trailing or doubled slash, no escape and no query: Next looks at
 * each of those itself before its proxy runs, so those requests still go to it.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)+$/;

/**
 * Where the locale proxy (src/i18n/proxy.ts) would send this request with a
 * 308 (`/en` → `/`, `/en/x` → `/x`, `/JA` → `/ja`), by the request's routing
 * decision; null for anything else, which Next answers.
 */
export function localeRedirectOf(req: IncomingMessage, route: RequestRoute): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const { decision } = route;
  if (decision.kind !== 'redirect' || decision.status !== 308 || decision.rememberLocale || decision.variesByLanguage) return null;
  if (!PLAIN_PATH.test(req.url ?? '')) return null;
  // A router payload or prefetch, or a pages-router data request: Next's own handling.
  if (!route.isDocument || req.headers['x-nextjs-data'] !== undefined) return null;
  return decision.pathname;
}

/**
 * The locale proxy's permanent redirects, answered without Next: the same
 * status, Location, Refresh and body Next sends for them, said to be plain text. A request Next
 * handles allocates objects V8 keeps until its next full collection (undici
 * `Request`s with an abort signal, held by a FinalizationRegistry), so under
 * load each one grows the old generation; see docs/performance.md. True when
 * it answered.
 */
export function answerLocaleRedirect(req: IncomingMessage, res: ServerResponse, route: RequestRoute): boolean {
  const location = localeRedirectOf(req, route);
  if (location === null) return false;
  res.statusCode = 308;
  res.setHeader('Location', location);
  res.setHeader('Refresh', `0;url=${location}`);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(location));
  res.end(req.method === 'HEAD' ? undefined : location);
  return true;
}
