import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LOCALE, type Locale } from '@/shared/locales';
import { CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy } from '@/server/serving/edge/content-security-policy';
import { fillNotFoundBody, fitsTemplate, notFoundScriptHashes, payloadQuery, type NotFoundTemplate } from './not-found-template';
import type { PageRoutes } from './page-routes';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import { ROUTER_VARY } from '@/shared/router-headers';
import { answerPlainText } from '@/server/serving/plain-text';

export interface NotFoundPages {
  routes: PageRoutes;
  templates: ReadonlyMap<Locale, NotFoundTemplate>;
}

/**
 * Answers a page load of a path the site does not have with the not-found page
 * filled in from its template: the same HTML Next would render, without
 * rendering, so scanners and typos cost next to nothing. That is a page load of
 * a locale's path (`route.pageLoad`), or a document request of a path the locale
 * rules pass by (`/api/x`, `/_next/x`: English, as Next renders it). A query the
 * template cannot carry (past 1,000 characters, or of other characters than a
 * URL's) is left out of the page's router payload, which is then Next's page of the
 * path alone: the query is never shown, and the browser's router reads its URL from
 * the address bar. Paths the template cannot stand for (unusual characters, very
 * long) go to Next.
 */
export function serveNotFound(req: IncomingMessage, res: ServerResponse, route: RequestRoute, pages: NotFoundPages): boolean {
  const { pathname, decision } = route;
  let locale: Locale = DEFAULT_LOCALE;
  let internalPathname = pathname;
  if (decision.kind === 'serve' && route.pageLoad) {
    locale = decision.locale;
    internalPathname = decision.internalPathname;
  } else if (decision.kind !== 'pass' || !route.isDocument || (req.method !== 'GET' && req.method !== 'HEAD')) {
    return false;
  }
  const template = pages.templates.get(locale);
  if (!template || !fitsTemplate(template, pathname)) return false;
  if (pages.routes.isRouted(pathname, internalPathname)) return false;

  const query = payloadQuery(fitsTemplate(template, pathname, route.query) ? route.query : '');
  const body = fillNotFoundBody(template, pathname, query);
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  res.setHeader('Vary', ROUTER_VARY);
  res.setHeader(CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy(notFoundScriptHashes(template, pathname, query)));
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * Answers a router request (`RSC: 1`: a navigation or a prefetch) of a locale's path the
 * site lacks with a plain 404 from memory instead of Next's rendered 404 payload. Next's
 * router loads a URL whose router answer is not a flight response in full
 * (`fetch-server-response.ts`), and that page load is the not-found page from its template
 * above: the visitor sees the same page, and nothing is rendered. True when it answered.
 */
export function answerMissingRouterRequest(req: IncomingMessage, res: ServerResponse, route: RequestRoute, pages: NotFoundPages): boolean {
  const { decision } = route;
  if (req.headers.rsc !== '1' || decision.kind !== 'serve' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  if (!pages.templates.has(decision.locale) || pages.routes.isRouted(route.pathname, decision.internalPathname)) return false;
  res.setHeader('Vary', ROUTER_VARY);
  answerPlainText(req, res, 404, 'Not Found', 'private, no-cache, no-store, max-age=0, must-revalidate');
  return true;
}
