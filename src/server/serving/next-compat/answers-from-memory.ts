import { cacheBusting, type CacheBusting } from './next-adapter';
import { checkNextVersion } from './next-version';
import type { NotFoundPages } from './not-found/serve-not-found';
import { loadPageRoutes } from './not-found/page-routes';
import { loadPrerenderedPages, type PrerenderedPage } from './prerendered-pages/prerendered-pages';
import { loadRouterPayloads, type PagePayloads } from './router-payloads/router-payloads';

/**
 * What the server answers in Next's stead, made from Next's private formats: the
 * prerendered pages and their router payloads, Next's `_rsc` check, the not-found pages
 * from their templates. Null when Next answers them all (NEXT_ANSWERS_ALL=true).
 */
export interface AnswersFromMemory {
  /** The prerendered pages, compressed, by the page's internal path. */
  pages: ReadonlyMap<string, PrerenderedPage>;
  /** The prerendered pages' router payloads, by the page's internal path. */
  routerPayloads: ReadonlyMap<string, PagePayloads>;
  /** Next's check of a router request's `_rsc`, lent (next-adapter.ts). */
  cacheBusting: CacheBusting;
  /** Filled in once Next has rendered the templates; empty until then. */
  notFoundPages: NotFoundPages;
}

/**
 * The answers from memory of the standalone build in `dir`, once its Next is the checked one,
 * their links naming `siteOrigin` (SITE_URL's, or '' for relative links).
 */
export function loadAnswersFromMemory(
  dir: string,
  buildId: string,
  requireFromBuild: NodeJS.Require,
  siteOrigin: string,
): AnswersFromMemory {
  checkNextVersion(requireFromBuild);
  return {
    pages: loadPrerenderedPages(dir, siteOrigin),
    routerPayloads: loadRouterPayloads(dir, buildId, siteOrigin),
    cacheBusting: cacheBusting(requireFromBuild),
    notFoundPages: { routes: loadPageRoutes(dir), templates: new Map() },
  };
}
