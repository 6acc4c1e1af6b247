import type { IncomingMessage, ServerResponse } from 'node:http';
import { preferredCoding, type ContentCoding } from '@/server/serving/negotiation/negotiation';
import type { CacheBusting, CacheBustingHeaders } from '@/server/serving/next/next-adapter';
import type { RequestRoute } from '@/server/serving/routing/request-route';
import {
  ROUTER_PREFETCH_HEADER,
  ROUTER_SEGMENT_PREFETCH_HEADER,
  ROUTER_STATE_TREE_HEADER,
  ROUTER_VARY,
  RSC_HEADER,
  SERVER_ACTION_HEADER,
} from '@/shared/router-headers';
import { VARY_BY_LANGUAGE_HEADER } from '@/shared/vary';
import { PAYLOAD_VARY, type PagePayloads, type RouterPayload } from './router-payloads';

const CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];
const CACHE_BUSTING_PARAM = '_rsc';

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The page whose prerendered payloads answer this request, if it is a router
 * request of one (`RSC: 1`, GET or HEAD, a prefetch of the kind the build
 * prerendered or none, no server action): navigations, prefetches and segment
 * prefetches. Any other router request goes to Next.
 */
export function routerPayloadsOf(
  req: IncomingMessage,
  route: RequestRoute,
  payloads: ReadonlyMap<string, PagePayloads>,
): PagePayloads | undefined {
  if (route.pageLoad || route.decision.kind !== 'serve' || req.headers[RSC_HEADER] !== '1') return undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const prefetch = req.headers[ROUTER_PREFETCH_HEADER];
  if ((prefetch !== undefined && prefetch !== '1') || req.headers[SERVER_ACTION_HEADER] !== undefined) return undefined;
  return payloads.get(route.decision.internalPathname);
}

function cacheBustingHeadersOf(req: IncomingMessage): CacheBustingHeaders {
  return {
    prefetch: headerOf(req, ROUTER_PREFETCH_HEADER),
    segmentPrefetch: headerOf(req, ROUTER_SEGMENT_PREFETCH_HEADER),
    stateTree: headerOf(req, ROUTER_STATE_TREE_HEADER),
    nextUrl: headerOf(req, 'next-url'),
  };
}

/**
 * Next's first answer to a router request (`RSC: 1`) whose `_rsc` is not the
 * hash of its router headers: a 307 to the same URL with the right one. True
 * when it was sent.
 */
export function redirectedForCacheBusting(
  req: IncomingMessage,
  res: ServerResponse,
  route: RequestRoute,
  cacheBusting: CacheBusting,
  deploymentId: string,
  headers: CacheBustingHeaders = cacheBustingHeadersOf(req),
): boolean | Promise<boolean> {
  const sent = new URLSearchParams(route.query).getAll(CACHE_BUSTING_PARAM);
  // Next reads a repeated `_rsc` as a list, which matches no hash.
  const matched = sent.length === 1 && cacheBusting.matches(headers, sent[0] ?? null);
  if (matched === true) return false;
  if (matched === false) return redirect(req, res, route, cacheBusting, deploymentId, headers);
  return matched.then((matches) => !matches && redirect(req, res, route, cacheBusting, deploymentId, headers));
}

/** Every redirect says what its body is, empty or not. */
const REDIRECT_CONTENT_TYPE = 'text/plain; charset=utf-8';

async function redirect(
  req: IncomingMessage,
  res: ServerResponse,
  route: RequestRoute,
  cacheBusting: CacheBusting,
  deploymentId: string,
  headers: CacheBustingHeaders,
): Promise<true> {
  res.statusCode = 307;
  res.setHeader('Location', await cacheBusting.redirectTarget(req.url ?? '/', headers));
  res.setHeader('x-nextjs-deployment-id', deploymentId);
  if (route.decision.kind === 'serve' && route.decision.variesByLanguage) res.setHeader('Vary', VARY_BY_LANGUAGE_HEADER);
  res.setHeader('Content-Type', REDIRECT_CONTENT_TYPE);
  res.setHeader('Content-Length', 0);
  res.end();
  return true;
}

/**
 * Answers a router request of a prerendered page (`page`, from routerPayloadsOf)
 * from memory as Next answers it: the `_rsc` hash checked by Next's own rule (a
 * 307 to the right one otherwise), then the segment a segment prefetch names
 * (a bodiless 404 for one the page does not have) or the whole page's payload,
 * with Next's headers and this build's deployment id, which makes a tab of
 * another build load the page in full. The root carries the rewrite headers of
 * the locale proxy and keeps its Vary by language; bodies come in the
 * smallest coding the client accepts, brotli included (Next only gzips).
 */
export function answerRouterPayload(
  req: IncomingMessage,
  res: ServerResponse,
  route: RequestRoute,
  page: PagePayloads,
  cacheBusting: CacheBusting,
  deploymentId: string,
): Promise<void> | void {
  if (route.decision.kind !== 'serve') return;
  const byLanguage = route.decision.variesByLanguage;
  const headers = cacheBustingHeadersOf(req);
  if (byLanguage) {
    // What the locale proxy's rewrite of the root says (src/proxy.ts), as Next passes it on.
    const internal = route.decision.internalPathname;
    res.setHeader('x-middleware-rewrite', route.query ? `${internal}?${route.query}` : internal);
    res.setHeader('x-nextjs-rewritten-path', internal);
  }
  const redirected = redirectedForCacheBusting(req, res, route, cacheBusting, deploymentId, headers);
  if (redirected === false) return answerPayload(req, res, page, headers, byLanguage);
  if (redirected === true) return;
  return redirected.then((sent) => {
    if (!sent) answerPayload(req, res, page, headers, byLanguage);
  });
}

/** The payload a router request with the right `_rsc` asks for. */
function answerPayload(
  req: IncomingMessage,
  res: ServerResponse,
  page: PagePayloads,
  headers: CacheBustingHeaders,
  byLanguage: boolean,
): void {
  let payload: RouterPayload | undefined = page.full;
  if (headers.prefetch === '1' && headers.segmentPrefetch !== undefined) {
    payload = page.segments.get(headers.segmentPrefetch);
    if (!payload) {
      res.writeHead(404, [...page.missingSegment, 'Vary', byLanguage ? `${ROUTER_VARY}, ${VARY_BY_LANGUAGE_HEADER}` : ROUTER_VARY]);
      res.end();
      return;
    }
  }
  // Next sends identity when nothing else is acceptable, and so do we.
  const coding = preferredCoding(req, CODINGS) ?? 'identity';
  res.writeHead(200, [...payload.headers[coding], 'Vary', byLanguage ? `${PAYLOAD_VARY}, ${VARY_BY_LANGUAGE_HEADER}` : PAYLOAD_VARY]);
  res.end(req.method === 'HEAD' ? undefined : payload.bodies[coding]);
}
