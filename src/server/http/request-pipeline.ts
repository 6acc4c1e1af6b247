import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { localeOfPath } from '@/shared/locales';
import type { ServerConfig } from '../config';
import { answerHealth, answerReadiness, type Readiness } from '../health';
import type { NextHandler } from '../next-app';
import type { Metrics } from '../observability/metrics';
import { methodLabel, routeLabel, statusLabel } from '../observability/route-label';
import { endServerSpan, startServerSpan, type ServerSpan } from '../observability/server-span';
import type { PrerenderedPage } from '../pages/prerendered-pages';
import type { BuildFiles } from '../builds/build-files';
import type { StaticAssets } from '../static-assets';
import { handleTelemetry } from '../telemetry/telemetry-endpoint';
import { refuseMethod } from './allowed-methods';
import { clientAddressOf, compileTrust, dropUntrustedForwarding, schemeOf } from './client-address';
import { requestIdOf } from './request-id';
import { originForm, splitTarget } from './request-target';
import { setSecurityHeaders } from './security-headers';
import { pageLoadOf } from './page-load';
import { serveNotFound, type NotFoundPages } from './serve-not-found';
import { serveCrawlerFile, type CrawlerFiles } from './serve-crawler-files';
import { servePrerendered } from './serve-prerendered';
import { serveBuilds } from './serve-builds';
import { serveStaticAsset } from './serve-static-asset';
import { varyOn } from './vary';

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

const MAX_LOGGED_PATH = 512;
const MAX_LOGGED_USER_AGENT = 256;
/** Probes and scrapes are frequent and uninteresting: debug level only. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);
/** The root's answer depends on the language cookie and Accept-Language (see src/i18n/routing.ts). */
const ROOT_VARY = ['Cookie', 'Accept-Language'];

function plain(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${body}\n`);
}

/** Counts the body bytes a response sends, for the access log. */
function countBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const add = (chunk: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    add(chunk);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') add(chunk);
    return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as ServerResponse['end'];
  return () => bytes;
}

/**
 * Every request on the public port: an id, security headers, the methods each
 * target allows, health, client
 * telemetry, build-freshness files, build assets, prerendered pages and not-found pages from
 * memory, then Next. Each request is timed,
 * counted by route template, traced when tracing is on, and logged once.
 */
export function createRequestListener(deps: PipelineDeps) {
  const { config, logger, metrics } = deps;
  const trust = compileTrust(config.trustProxy);

  async function dispatch(req: IncomingMessage, res: ServerResponse, pathname: string, clientAddress: string): Promise<void> {
    if (refuseMethod(req, res, pathname)) return;
    if (pathname === '/healthz') return answerHealth(res);
    if (pathname === '/readyz') return answerReadiness(res, deps.readiness, deps.dir);
    if (pathname === '/metrics') return plain(res, 404, 'Not Found');
    if (pathname === '/api/telemetry') {
      return handleTelemetry(req, res, { metrics, logger, clientAddress, limiter: deps.limiter });
    }
    if (pathname.startsWith('/builds/')) return serveBuilds(req, res, pathname, deps.buildFiles, config.buildPollIntervalMs);
    if (serveCrawlerFile(req, res, pathname, deps.crawlerFiles)) return;
    const asset = serveStaticAsset(req, res, pathname, deps.assets);
    if (asset) return asset;
    const load = pageLoadOf(req);
    if (load && servePrerendered(req, res, load, deps.pages)) return;
    if (load && serveNotFound(req, res, load, deps.notFoundPages)) return;
    const handle = deps.next();
    if (!handle) return plain(res, 503, 'starting');
    if (pathname === '/') varyOn(res, ROOT_VARY);
    dropUntrustedForwarding(req, trust);
    // Next's file server answered a malformed Range on a public file with a 500: it gets the whole file
    // instead (a server may always ignore Range); build assets' ranges are ours (serve-asset-range.ts).
    delete req.headers.range;
    delete req.headers['if-range'];
    await handle(req, res);
  }

  return function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const startedAt = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    req.url = originForm(req.url);
    const { pathname } = splitTarget(req.url);
    const method = methodLabel(req.method);
    const clientAddress = clientAddressOf(req, trust);
    const userAgent = String(req.headers['user-agent'] ?? '').slice(0, MAX_LOGGED_USER_AGENT);
    res.setHeader('X-Request-Id', requestId);
    setSecurityHeaders(res, pathname, config.hsts);
    if (deps.readiness.draining) res.setHeader('Connection', 'close');
    const sentBytes = countBytes(res);
    metrics.activeRequests.inc();

    let serverSpan: ServerSpan | undefined;
    if (config.tracing.enabled) {
      serverSpan = startServerSpan(req, {
        method,
        path: pathname.slice(0, MAX_LOGGED_PATH),
        scheme: schemeOf(req, trust),
        clientAddress,
        userAgent,
      });
    }

    res.once('close', () => {
      metrics.activeRequests.dec();
      const status = res.statusCode;
      const route = routeLabel(pathname, status);
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      metrics.requestDuration.observe({ method, route, status_code: statusLabel(status) }, seconds);
      const spanContext = serverSpan?.span.spanContext();
      if (serverSpan) endServerSpan(serverSpan.span, method, route, status);
      const entry = {
        request_id: requestId,
        method,
        path: pathname.slice(0, MAX_LOGGED_PATH),
        route,
        status,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
        bytes: sentBytes(),
        locale: route === 'public_file' || route.startsWith('/_next') || route.startsWith('/api') ? undefined : localeOfPath(pathname),
        user_agent: userAgent,
        remote_address: clientAddress,
        aborted: res.writableFinished ? undefined : true,
        ...(spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {}),
      };
      if (QUIET_PATHS.has(pathname)) logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });

    const run = () =>
      dispatch(req, res, pathname, clientAddress).catch((error: unknown) => {
        logger.error({ err: error, request_id: requestId, path: pathname.slice(0, MAX_LOGGED_PATH) }, 'Request failed');
        if (!res.headersSent) plain(res, 500, 'Internal Server Error');
        else res.destroy();
      });
    if (serverSpan) context.with(serverSpan.context, run);
    else void run();
  };
}
