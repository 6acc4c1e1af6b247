import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Locale } from '@/shared/locales';
import { CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy } from '@/server/serving/edge/content-security-policy';
import { fillNotFoundBody, fitsTemplate, notFoundScriptHashes, type NotFoundTemplate } from './not-found-template';
import type { PageRoutes } from './page-routes';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import { ROUTER_VARY } from '@/shared/router-headers';

export interface NotFoundPages {
  routes: PageRoutes;
  templates: ReadonlyMap<Locale, NotFoundTemplate>;
}

/**
 * Answers a page load (`route.pageLoad`) of a path the site does not have with the not-found page
 * filled in from its template: the same HTML Next would render, without
 * rendering, so scanners and typos cost next to nothing. Paths the template
 * cannot stand for (a query, unusual characters, very long) go to Next.
 */
export function serveNotFound(req: IncomingMessage, res: ServerResponse, route: RequestRoute, pages: NotFoundPages): boolean {
  const { pathname, hasQuery, decision } = route;
  if (decision.kind !== 'serve') return false;
  const template = pages.templates.get(decision.locale);
  if (!template || hasQuery || !fitsTemplate(pathname, decision.locale)) return false;
  if (pages.routes.isRouted(pathname, decision.internalPathname)) return false;

  const body = fillNotFoundBody(template, pathname);
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  res.setHeader('Vary', ROUTER_VARY);
  res.setHeader(CONTENT_SECURITY_POLICY_HEADER, contentSecurityPolicy(notFoundScriptHashes(template, pathname)));
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
