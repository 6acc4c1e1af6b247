import { canonicalLocale, DEFAULT_LOCALE, type Locale } from '@/shared/locales';
import { ROUTER_REQUEST_HEADERS } from '@/shared/router-headers';
import { PASSTHROUGH_EXACT, PASSTHROUGH_PREFIXES } from '@/shared/site-paths';
import { detectRootLocale } from './detection';

const FILE_EXTENSION = /\/[^/]*\.[a-z0-9]+$/i;

export interface RoutingRequest {
  pathname: string;
  cookie: string | undefined;
  acceptLanguage: string | null;
  /** A top-level page load, as opposed to a router prefetch or payload fetch. */
  isDocument: boolean;
}

export type RoutingDecision =
  | { kind: 'pass' }
  | {
      kind: 'redirect';
      status: 307 | 308;
      pathname: string;
      /** The locale to remember in the cookie, when this redirect decided it. */
      rememberLocale?: Locale;
      variesByLanguage: boolean;
    }
  | { kind: 'serve'; locale: Locale; internalPathname: string; variesByLanguage: boolean };

/**
 * A top-level page load, as opposed to a router payload fetch or any prefetch.
 * Only a page load may change the visitor's language cookie or be answered
 * with a page's HTML. `header(headers, name)` reads one request header of
 * `headers` by lower-case name (a function of both, so no caller needs a
 * closure per request).
 */
export function isDocumentRequest<Headers>(
  headers: Headers,
  header: (headers: Headers, name: string) => string | null | undefined,
): boolean {
  for (const name of ROUTER_REQUEST_HEADERS) {
    if (header(headers, name) != null) return false;
  }
  if (header(headers, 'purpose')?.includes('prefetch') || header(headers, 'sec-purpose')?.includes('prefetch')) return false;
  const destination = header(headers, 'sec-fetch-dest');
  return destination == null || destination === 'document';
}

/** A path that names a file (its last segment has an extension): Next rewrites those it has not to a plain 404 (next.config.js). */
export function isFilePath(pathname: string): boolean {
  return FILE_EXTENSION.test(pathname);
}

export function isPassthroughPath(pathname: string): boolean {
  if (PASSTHROUGH_EXACT.has(pathname)) return true;
  for (const prefix of PASSTHROUGH_PREFIXES) {
    if (pathname.startsWith(prefix)) return true;
  }
  return isFilePath(pathname);
}

/**
 * Folds the leading slashes and backslashes of the rest of a path into one, so
 * that `/en//evil.example` can never redirect to the protocol-relative
 * `//evil.example`.
 */
function sameSitePath(rest: string): string {
  const trimmed = rest.replace(/^[/\\]+/, '');
  return `/${trimmed}`;
}

/** One object for every path passed by: the server decides for each file request too. */
const PASS: RoutingDecision = Object.freeze({ kind: 'pass' });

/**
 * Decides what the proxy does with one request. Pure, so every case is
 * unit-tested. Only the root reads `cookie` and `acceptLanguage`.
 */
export function decideRoute(request: RoutingRequest): RoutingDecision {
  const { pathname } = request;
  if (isPassthroughPath(pathname)) return PASS;

  const match = /^\/([^/]*)(.*)$/.exec(pathname);
  const firstSegment = match?.[1] ?? '';
  const rest = match?.[2] ?? '';
  const locale = canonicalLocale(firstSegment);

  if (locale === DEFAULT_LOCALE) {
    return { kind: 'redirect', status: 308, pathname: sameSitePath(rest), variesByLanguage: false };
  }
  if (locale && firstSegment !== locale) {
    const inside = sameSitePath(rest);
    const target = inside === '/' ? `/${locale}` : `/${locale}${inside}`;
    return { kind: 'redirect', status: 308, pathname: target, variesByLanguage: false };
  }
  if (locale) {
    return { kind: 'serve', locale, internalPathname: pathname, variesByLanguage: false };
  }

  if (pathname === '/') {
    const detection = detectRootLocale({ cookie: request.cookie, acceptLanguage: request.acceptLanguage });
    if (detection.locale !== DEFAULT_LOCALE) {
      const remember = detection.source === 'accept-language' && request.isDocument;
      return {
        kind: 'redirect',
        status: 307,
        pathname: `/${detection.locale}`,
        rememberLocale: remember ? detection.locale : undefined,
        variesByLanguage: true,
      };
    }
    return { kind: 'serve', locale: DEFAULT_LOCALE, internalPathname: `/${DEFAULT_LOCALE}`, variesByLanguage: true };
  }

  return {
    kind: 'serve',
    locale: DEFAULT_LOCALE,
    internalPathname: `/${DEFAULT_LOCALE}${pathname}`,
    variesByLanguage: false,
  };
}
