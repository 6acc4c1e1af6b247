import type { IncomingMessage } from 'node:http';
import { decideRoute, isDocumentRequest, type RoutingDecision } from '@/i18n/routing';
import { LOCALE_COOKIE } from '@/shared/locale-cookie';
import type { RequestTarget } from '@/server/serving/edge/request-target';

export interface PageLoad {
  pathname: string;
  hasQuery: boolean;
  decision: Extract<RoutingDecision, { kind: 'serve' }>;
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

/**
 * A browser's load of a page the locale rules serve (not a redirect, not a
 * router payload), decided once with the proxy's own rules
 * (src/i18n/routing.ts) so the server can answer it without Next.
 */
export function pageLoadOf(req: IncomingMessage, { pathname, query }: RequestTarget): PageLoad | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const search = query === '' ? null : new URLSearchParams(query);
  if (search?.has('_rsc')) return null;
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  if (!isDocumentRequest(header)) return null;
  const decision = decideRoute({
    pathname,
    cookie: cookieValue(req.headers.cookie, LOCALE_COOKIE),
    acceptLanguage: req.headers['accept-language'] ?? null,
    isDocument: true,
  });
  if (decision.kind !== 'serve') return null;
  return { pathname, hasQuery: (search?.size ?? 0) > 0, decision };
}
