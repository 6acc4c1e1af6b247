import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ServerConfig } from '@/server/config';
import { answerHealth, answerReadiness, type Readiness } from '@/server/health';
import type { NextHandler } from '@/server/next-app';
import { logRequestFailure } from '@/server/observability/access-log';
import type { MeteredResponse } from '@/server/observability/metered-response';
import type { Metrics } from '@/server/observability/metrics';
import { observeRequest } from '@/server/observability/request-observer';
import { handleTelemetry } from '@/server/telemetry/telemetry-endpoint';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';
import { VARY_BY_LANGUAGE } from '@/shared/vary';
import { serveBuilds } from './builds/serve-builds';
import type { BuildFiles } from './builds/build-files';
import { serveCrawlerFile, type CrawlerFiles } from './crawlers/serve-crawler-files';
import { refuseMethod } from './edge/allowed-methods';
import { clientAddressOf, compileTrust, dropUntrustedForwarding, schemeOf } from './edge/client-address';
import { requestIdOf } from './edge/request-id';
import { originForm, splitTarget, type RequestTarget } from './edge/request-target';
import { securityHeaders, setHeaderList, type HeaderList } from './edge/security-headers';
import { varyOn } from './negotiation/vary';
import { serveNotFound, type NotFoundPages } from './not-found/serve-not-found';
import { pageLoadOf } from './pages/page-load';
import type { PrerenderedPage } from './pages/prerendered-pages';
import { servePrerendered } from './pages/serve-prerendered';
import { serveStaticAsset } from './static-assets/serve-static-asset';
import type { StaticAssets } from './static-assets/static-assets';

export interface PipelineDeps {
  config: ServerConfig;
  dir: string;
  logger: Logger;
  metrics: Metrics;
  pages: Map<string, PrerenderedPage>;
  assets: StaticAssets;
  buildFiles: BuildFiles;
  crawlerFiles: CrawlerFiles;
  /** Filled in once Next has rendered the templates; empty until then. */
  notFoundPages: NotFoundPages;
  readiness: Readiness;
  limiter: { take(address: string): boolean };
  /** Next's handler, once prepared. */
  next: () => NextHandler | null;
}

function plain(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${body}\n`);
}

/**
 * Every request on the public port: an id, security headers, the methods each
 * target allows, then the first of these that answers: health, client
 * telemetry, build-freshness files, crawler files, build assets, prerendered
 * pages and not-found pages from memory, then Next. Each request is observed
 * (src/server/observability/request-observer.ts) from start to close.
 */
export function createRequestListener(deps: PipelineDeps) {
  const { config, logger, metrics } = deps;
  const trust = compileTrust(config.trustProxy);
  const securityHeadersOf = securityHeaders(config.hsts);

  /**
   * Answers from memory where it can; a promise only for what must wait (a
   * body, a file, Next). A page load of a prerendered page comes first and
   * writes `head` with its own headers in one go; every other answer starts
   * from `head` set on the response.
   */
  function dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    clientAddress: string,
    head: HeaderList,
  ): Promise<void> | void {
    const { pathname } = target;
    const load = pageLoadOf(req, target);
    if (load && servePrerendered(req, res, load, deps.pages, head)) return;
    setHeaderList(res, head);
    if (refuseMethod(req, res, pathname)) return;
    // Only OPTIONS may name `*` (RFC 9112 §3.2.4), and an authority alone names no path: Next failed on either.
    if (!req.url?.startsWith('/')) return plain(res, 400, 'Bad Request');
    if (pathname === '/healthz') return answerHealth(res);
    if (pathname === '/readyz') return answerReadiness(res, deps.readiness, deps.dir);
    if (pathname === '/metrics') return plain(res, 404, 'Not Found');
    if (pathname === TELEMETRY_ENDPOINT) {
      return handleTelemetry(req, res, { metrics, logger, clientAddress, limiter: deps.limiter });
    }
    if (pathname.startsWith('/builds/')) return serveBuilds(req, res, pathname, deps.buildFiles, config.buildPollIntervalMs);
    if (serveCrawlerFile(req, res, pathname, deps.crawlerFiles)) return;
    const asset = serveStaticAsset(req, res, pathname, deps.assets);
    if (asset) return asset;
    if (load && serveNotFound(req, res, load, deps.notFoundPages)) return;
    return handOverToNext(req, res, pathname);
  }

  async function handOverToNext(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const handle = deps.next();
    if (!handle) return plain(res, 503, 'starting');
    // The root's answer depends on the language cookie and Accept-Language (see src/i18n/routing.ts).
    if (pathname === '/') varyOn(res, VARY_BY_LANGUAGE);
    dropUntrustedForwarding(req, trust);
    // Next's file server answered a malformed Range on a public file with a 500: it gets the whole file
    // instead (a server may always ignore Range); build assets' ranges are ours (serve-asset-range.ts).
    delete req.headers.range;
    delete req.headers['if-range'];
    await handle(req, res);
  }

  /** The last answer to a request that threw: a 500 if nothing was sent yet, else the connection cut. */
  function fail(res: ServerResponse, error: unknown, requestId: string, pathname: string, head: HeaderList): void {
    logRequestFailure(logger, error, requestId, pathname);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    setHeaderList(res, head);
    plain(res, 500, 'Internal Server Error');
  }

  function respond(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    clientAddress: string,
    head: HeaderList,
    requestId: string,
  ): void {
    try {
      dispatch(req, res, target, clientAddress, head)?.catch((error: unknown) => fail(res, error, requestId, target.pathname, head));
    } catch (error) {
      fail(res, error, requestId, target.pathname, head);
    }
  }

  return function onRequest(req: IncomingMessage, res: MeteredResponse): void {
    const requestId = requestIdOf(req);
    req.url = originForm(req.url);
    const target = splitTarget(req.url);
    const { pathname } = target;
    const clientAddress = clientAddressOf(req, trust);
    const head = ['X-Request-Id', requestId, ...securityHeadersOf(pathname)];
    if (deps.readiness.draining) head.push('Connection', 'close');
    const tracedScheme = config.tracing.enabled ? schemeOf(req, trust) : undefined;
    const spanContext = observeRequest(deps, req, res, requestId, pathname, clientAddress, tracedScheme);
    if (spanContext) context.with(spanContext, respond, undefined, req, res, target, clientAddress, head, requestId);
    else respond(req, res, target, clientAddress, head, requestId);
  };
}
