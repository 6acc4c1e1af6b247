import { NextResponse, type NextRequest } from 'next/server';
import { LOCALE_COOKIE, localeCookieAttributes } from '@/shared/locale-cookie';
import { REQUESTED_PATH_HEADER } from '@/shared/request-headers';
import { VARY_BY_LANGUAGE_HEADER } from '@/shared/vary-by-language';
import { handedOverDecision, ROUTE_HANDOVER_HEADER } from './route-handover';
import { decideRoute, isDocumentRequest } from './routing';

function isHttps(request: NextRequest): boolean {
  return request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

/**
 * Locale routing for every page request. next-i18next's own `createProxy` is
 * not used: with `hideDefaultLocale` it serves English at `/` whatever the
 * visitor prefers, rewrites the cookie to English, sets the cookie from
 * `Referer` (and throws on a Referer that is not a URL), and its static-file
 * test lets `.json`, `.txt`, `.xml` and `.webmanifest` through to the pages.
 * `decideRoute` holds our rules instead; this function only applies them,
 * to the decision our Node entry made for the request when it handed one over.
 */
export function localeProxy(request: NextRequest): NextResponse {
  const decision =
    handedOverDecision(request.headers.get(ROUTE_HANDOVER_HEADER), request.nextUrl.pathname) ??
    decideRoute({
      pathname: request.nextUrl.pathname,
      cookie: request.cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get('accept-language'),
      isDocument: isDocumentRequest(request.headers, (headers, name) => headers.get(name)),
    });

  if (decision.kind === 'pass') return NextResponse.next();

  if (decision.kind === 'redirect') {
    const target = request.nextUrl.clone();
    target.pathname = decision.pathname;
    const response = NextResponse.redirect(target, decision.status);
    if (decision.rememberLocale) {
      response.cookies.set(LOCALE_COOKIE, decision.rememberLocale, localeCookieAttributes(isHttps(request)));
    }
    if (decision.variesByLanguage) response.headers.set('Vary', VARY_BY_LANGUAGE_HEADER);
    return response;
  }

  const headers = new Headers(request.headers);
  headers.delete(ROUTE_HANDOVER_HEADER);
  headers.set(REQUESTED_PATH_HEADER, request.nextUrl.pathname);
  let response: NextResponse;
  if (decision.internalPathname === request.nextUrl.pathname) {
    response = NextResponse.next({ request: { headers } });
  } else {
    const target = request.nextUrl.clone();
    target.pathname = decision.internalPathname;
    response = NextResponse.rewrite(target, { request: { headers } });
  }
  if (decision.variesByLanguage) response.headers.set('Vary', VARY_BY_LANGUAGE_HEADER);
  return response;
}
