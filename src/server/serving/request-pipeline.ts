import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ServerConfig } from '@/server/config';
import { logRequestFailure } from '@/server/observability/access-log';
import type { MeteredResponse } from '@/server/observability/metered-response';
import type { Metrics } from '@/server/observability/metrics';
import { observeRequest } from '@/server/observability/request-observer';
import { isFilePath } from '@/i18n/routing';
import { ROUTER_STATE_TREE_HEADER, ROUTER_VARY } from '@/shared/router-headers';
import { BUILD_ASSETS_PREFIX, BUILDS_PREFIX, HEALTH_PATH, READINESS_PATH } from '@/shared/site-paths';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';
import { serveBuilds } from './builds/serve-builds';
import type { BuildFiles } from './builds/build-files';
import { ANSWERING_BUILD_HEADER, deploymentIdOf, FORWARDED_HEADER, type PeerFiles } from './canary/peer-files';
import { serveCrawlerFile, type CrawlerFiles } from './crawlers/serve-crawler-files';
import { serveFile } from './files/serve-file';
import type { InMemoryFile } from './files/in-memory-file';
import { siteFileOf } from './files/site-files';
import { refuseMethod } from './edge/allowed-methods';
import { clientAddressOf, compileTrust, schemeOf } from './edge/client-address';
import { requestIdOf } from './edge/request-id';
import { malformedHeadOf } from './edge/request-head';
import { originForm } from './edge/request-target';
import { securityHeaders } from './edge/security-headers';
import { setHeaderList, type HeaderList } from './header-list';
import { answerHealth, answerReadiness, type Readiness } from './health/health';
import { handOverToNext, type Renderer } from './hand-over-to-next';
import type { AnswersFromMemory } from './next-compat/answers-from-memory';
import type { CacheBusting } from './next-compat/next-adapter';
import { answerMissingRouterRequest, serveNotFound } from './next-compat/not-found/serve-not-found';
import { servePrerendered } from './next-compat/prerendered-pages/serve-prerendered';
import { answerPlainText } from './plain-text';
import { answerLocaleRedirect } from './redirects/locale-redirects';
import { routeOf, type RequestRoute } from './routing/request-route';
import { answerRouterPayload, redirectedForCacheBusting, routerPayloadsOf } from './next-compat/router-payloads/serve-router-payload';
import { pageViewTiming, renewPageViewToken } from './telemetry/page-view-headers';
import { handleTelemetry, type TelemetryServices } from './telemetry/telemetry-endpoint';

export interface PipelineDeps {
  config: ServerConfig;
  /** The id of the build this process serves. */
  buildId: string;
  dir: string;
  logger: Logger;
  metrics: Metrics;
  /** Each prerendered page's inline-script hashes, which its policy allows whoever sends it. */
  pageScriptHashes: ReadonlyMap<string, readonly string[]>;
  /** What is answered in Next's stead out of its private formats; null when Next answers it all (NEXT_ANSWERS_ALL). */
  fromMemory: AnswersFromMemory | null;
  /** The build's assets and public/, by URL path. */
  files: ReadonlyMap<string, InMemoryFile>;
  buildFiles: BuildFiles;
  /** During a canary release, the other live build's files, from its pods; null otherwise. */
  peerFiles: PeerFiles | null;
  crawlerFiles: CrawlerFiles;
  readiness: Readiness;
  /** Browser reports: the page-view tokens issued with every page view counted, and what checks each beacon. */
  telemetry: TelemetryServices;
  /** Next's request handler, in the renderer's process: bounded, and shed beyond its limits. */
  renderer: Renderer;
  /** Whether Next's own parser reads a request's `Next-Router-State-Tree` (absent is fine), lent by serving/next-compat/next-adapter.ts. */
  routerStateIsValid: (header: string | string[] | undefined) => boolean;
  /** This process's key for the routing decisions handed to Next's proxy (src/i18n/route-handover.ts). */
  routeHandoverKey: string;
}

/**
 * Every request on the public port: an id, security headers, one routing
 * decision (serving/routing/request-route.ts), then `dispatch`, where every
 * answer is chosen. Each request is observed
 * (src/server/observability/request-observer.ts) from start to close.
 */
export function createRequestListener(deps: PipelineDeps) {
  const { config, logger, metrics } = deps;
  const trust = compileTrust(config.trustProxy);
  const securityHeadersOf = securityHeaders(config.hsts);

  /**
   * The one place a request's answer is chosen, first match wins. Answers from
   * memory where it can; a promise only for what must wait (a body, a file,
   * Next). A page load of a prerendered page comes first and writes `head` with
   * its own headers in one go; every other answer starts from `head` set on
   * the response.
   */
  function dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    route: RequestRoute,
    clientAddress: string,
    head: HeaderList,
  ): Promise<void> | void {
    const { pathname } = route;
    const { fromMemory } = deps;
    const malformed = malformedHeadOf(req);
    if (fromMemory && malformed === undefined && route.pageLoad && servePrerendered(req, res, route, fromMemory.pages, head)) return;
    setHeaderList(res, head);
    // A pod asking for another build's file learns whether the Service reached a pod of that build.
    if (req.headers[FORWARDED_HEADER] !== undefined) res.setHeader(ANSWERING_BUILD_HEADER, deps.buildId);
    if (malformed !== undefined) {
      // What follows a head that cannot be trusted cannot be either.
      res.setHeader('Connection', 'close');
      return answerPlainText(req, res, malformed.status, malformed.text);
    }
    if (refuseMethod(req, res, pathname)) return;
    // Only OPTIONS may name `*` (RFC 9112 §3.2.4), and an authority alone names no path: Next failed on either.
    if (!req.url?.startsWith('/')) return answerPlainText(req, res, 400, 'Bad Request');
    if (pathname === HEALTH_PATH) return answerHealth(req, res);
    if (pathname === READINESS_PATH) return answerReadiness(req, res, deps.readiness, deps.dir);
    if (pathname === '/metrics') return answerPlainText(req, res, 404, 'Not Found');
    if (pathname === TELEMETRY_ENDPOINT) {
      return handleTelemetry(req, res, {
        ...deps.telemetry,
        metrics,
        logger,
        buildId: deps.buildId,
        clientAddress,
        trust,
        draining: deps.readiness.draining,
      });
    }
    if (pathname.startsWith(BUILDS_PREFIX)) {
      renewPageViewToken(req, res, deps.telemetry.tokens);
      return serveBuilds(req, res, pathname, deps.buildFiles, deps.peerFiles);
    }
    if (serveCrawlerFile(req, res, pathname, deps.crawlerFiles)) return;
    const file = siteFileOf(deps.files, pathname);
    if (file) return serveFile(req, res, file);
    if (pathname.startsWith(BUILD_ASSETS_PREFIX)) {
      // During a canary release, a file of the other live build comes from its pods.
      const ofBuild = deploymentIdOf(req.url);
      if (deps.peerFiles?.mayForward(req, ofBuild)) return deps.peerFiles.forward(req, res, 'asset', ofBuild);
      // A file of another build (during a rollout): a plain, uncached 404, so the browser sees a
      // chunk error and recovers, and no cache keeps the miss.
      return answerPlainText(req, res, 404, 'Not Found');
    }
    if (fromMemory) {
      const payloads = routerPayloadsOf(req, route, fromMemory.routerPayloads);
      if (payloads) return answerRouterPayload(req, res, route, payloads, fromMemory.cacheBusting, deps.buildId);
      if (isFilePath(pathname)) return answerMissingFile(req, res, route, fromMemory.cacheBusting);
      if (serveNotFound(req, res, route, fromMemory.notFoundPages)) return;
      if (answerMissingRouterRequest(req, res, route, fromMemory.notFoundPages)) return;
    }
    if (answerLocaleRedirect(req, res, route)) return;
    // Next answers a router state it cannot parse with a 500, while it is the client's mistake.
    if (!deps.routerStateIsValid(req.headers[ROUTER_STATE_TREE_HEADER])) {
      return answerPlainText(req, res, 400, 'Bad Request: unreadable Next-Router-State-Tree');
    }
    const scriptHashes = route.decision.kind === 'serve' ? deps.pageScriptHashes.get(route.decision.internalPathname) : undefined;
    return handOverToNext(req, res, route, deps.renderer, trust, deps.routeHandoverKey, scriptHashes ?? []);
  }

  /** A file the site lacks, as next.config.js's rewrite to /api/missing-file answers it (a router request's `_rsc` checked first). */
  async function answerMissingFile(
    req: IncomingMessage,
    res: ServerResponse,
    route: RequestRoute,
    cacheBusting: CacheBusting,
  ): Promise<void> {
    if (req.headers.rsc === '1' && (await redirectedForCacheBusting(req, res, route, cacheBusting, deps.buildId))) return;
    res.setHeader('Vary', ROUTER_VARY);
    answerPlainText(req, res, 404, 'Not Found');
  }

  /** The last answer to a request that threw: a 500 if nothing was sent yet, else the connection cut. */
  function fail(req: IncomingMessage, res: ServerResponse, error: unknown, requestId: string, pathname: string, head: HeaderList): void {
    logRequestFailure(logger, error, requestId, pathname);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    setHeaderList(res, head);
    answerPlainText(req, res, 500, 'Internal Server Error');
  }

  function respond(
    req: IncomingMessage,
    res: ServerResponse,
    route: RequestRoute,
    clientAddress: string,
    head: HeaderList,
    requestId: string,
  ): void {
    try {
      dispatch(req, res, route, clientAddress, head)?.catch((error: unknown) => fail(req, res, error, requestId, route.pathname, head));
    } catch (error) {
      fail(req, res, error, requestId, route.pathname, head);
    }
  }

  return function onRequest(req: IncomingMessage, res: MeteredResponse): void {
    const requestId = requestIdOf(req);
    req.url = originForm(req.url);
    const route = routeOf(req);
    const clientAddress = clientAddressOf(req, trust);
    const head = ['X-Request-Id', requestId, ...securityHeadersOf(route.pathname)];
    if (deps.readiness.draining) head.push('Connection', 'close');
    const pageView = pageViewTiming(route, deps.telemetry.tokens, deps.buildId);
    if (pageView) head.push('Server-Timing', pageView);
    const tracedScheme = config.tracing.enabled ? schemeOf(req, trust) : undefined;
    const spanContext = observeRequest(deps, req, res, requestId, route, clientAddress, tracedScheme);
    if (spanContext) context.with(spanContext, respond, undefined, req, res, route, clientAddress, head, requestId);
    else respond(req, res, route, clientAddress, head, requestId);
  };
}
