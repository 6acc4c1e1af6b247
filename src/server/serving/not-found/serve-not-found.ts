import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LOCALE, type Locale } from '@/shared/locales';
import { CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy } from '@/server/serving/edge/content-security-policy';
import { fillNotFoundBody, fitsTemplate, notFoundScriptHashes, payloadQuery, type NotFoundTemplate } from './not-found-template';
import type { PageRoutes } from './page-routes';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import { ROUTER_VARY } from '@/shared/router-headers';

export interface NotFoundPages {
  routes: PageRoutes;
  templates: ReadonlyMap<Locale, NotFoundTemplate>;
}

/**
 * Answers a page load of a path the site does not have with the not-found page
 * filled in from its template: the same HTML Next would render, without
 * rendering, so scanners and typos cost next to nothing. That is a page load of
 * a locale's path (`route.pageLoad`), or a document request of a path the locale
 * rules pass by (`/api/x`, `/_next/x`: English, as Next renders it). Paths the
 * template cannot stand for (a query of other characters than a URL's, unusual
 * characters, very long) go to Next.
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
  if (!template || !fitsTemplate(template, pathname, route.query)) return false;
  if (pages.routes.isRouted(pathname, internalPathname)) return false;

  const query = payloadQuery(route.query);
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
