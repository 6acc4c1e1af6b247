import type { IncomingMessage } from 'node:http';
import type { Context } from '@opentelemetry/api';
import type { RoutingDecision } from '@/i18n/routing';
import type { Logger } from 'pino';
import { localeOfRoute, loggedPath, loggedUserAgent, writeAccessLine } from './access-log';
import type { MeteredResponse } from './metered-response';
import type { Metrics } from './metrics';
import { countRequestEnd, countRequestStart } from './request-metrics';
import { methodLabel, routeLabel } from './route-label';
import { endServerSpan, startServerSpan } from './server-span';

/** What the server decided of a request at its start (src/server/serving/routing/request-route.ts). */
export interface ObservedRoute {
  pathname: string;
  /** The locale rules' decision, made once. */
  decision: RoutingDecision;
  /** A browser's navigation to a page the rules serve: a page view, counted here. */
  browserPageLoad: boolean;
}

/**
 * Watches one request on the public port until its response closes: timed,
 * counted by the route template of its routing decision, traced when
 * `tracedScheme` is given (tracing on), and logged once. Returns the span's
 * context to run the request in, if traced.
 */
export function observeRequest(
  deps: { logger: Logger; metrics: Metrics },
  req: IncomingMessage,
  res: MeteredResponse,
  requestId: string,
  observedRoute: ObservedRoute,
  clientAddress: string,
  tracedScheme: 'http' | 'https' | undefined,
): Context | undefined {
  const { pathname, decision } = observedRoute;
  const startedAt = process.hrtime.bigint();
  const method = methodLabel(req.method);
  const userAgent = loggedUserAgent(req);
  countRequestStart(deps.metrics);
  const serverSpan = tracedScheme
    ? startServerSpan(req, { method, path: loggedPath(pathname), scheme: tracedScheme, clientAddress, userAgent })
    : undefined;

  let ended = false;
  // The response closes when it is sent or its connection goes. A request queued on its
  // connection behind another (pipelined) has a response that never closes if the connection
  // goes first (after a parse error, say): Node closes the request then, so both are watched,
  // the request only once its connection is gone (until then its response will close).
  const end = function (this: unknown) {
    if (ended || (this === req && req.socket?.destroyed === false)) return;
    ended = true;
    const status = res.statusCode;
    const route = routeLabel(pathname, decision, status);
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    countRequestEnd(deps.metrics, method, route, status, seconds);
    if (observedRoute.browserPageLoad) deps.metrics.pageLoads.inc();
    const spanContext = serverSpan?.span.spanContext();
    if (serverSpan) endServerSpan(serverSpan.span, method, route, status);
    writeAccessLine(deps.logger, pathname, {
      request_id: requestId,
      method,
      path: loggedPath(pathname),
      route,
      status,
      duration_ms: Math.round(seconds * 1e6) / 1e3,
      bytes: res.bodyBytes,
      locale: localeOfRoute(route, pathname),
      user_agent: userAgent,
      remote_address: clientAddress,
      aborted: res.writableFinished ? undefined : true,
      // Always present, undefined when untraced (left out of the line): every line has one shape.
      trace_id: spanContext?.traceId,
      span_id: spanContext?.spanId,
    });
  };
  res.on('close', end);
  req.on('close', end);
  return serverSpan?.context;
}
