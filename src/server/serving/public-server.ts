import { createServer, IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { ServerConfig } from '@/server/config';
import { MeteredResponse } from '@/server/observability/metered-response';
import type { Metrics } from '@/server/observability/metrics';
import { securityHeaders } from './edge/security-headers';
import { answerUnparsedRequests } from './edge/unparsed-requests';

/** At most this often, a line says connections were dropped at the limit. */
const DROP_LOG_INTERVAL_MS = 60_000;

/**
 * How often Node looks for heads not received in time, and the timeout it
 * applies: together, a head is cut within HEADERS_TIMEOUT_MS (Node's check runs
 * every 30 s by default, which held a partial head for up to 96 s).
 */
export function headersTimeouts(headersTimeoutMs: number): { headersTimeout: number; connectionsCheckingInterval: number } {
  const connectionsCheckingInterval = Math.min(1000, Math.floor(headersTimeoutMs / 10));
  return { headersTimeout: headersTimeoutMs - connectionsCheckingInterval, connectionsCheckingInterval };
}

/**
 * The public port's server: our response class, the keep-alive and headers
 * timeouts, at most MAX_CONNECTIONS open connections (further ones are closed
 * on arrival, counted and logged at most once a minute), and the answers to
 * what Node cannot parse. Host is checked by the pipeline (edge/request-head.ts),
 * so a missing one is answered like any other bad request.
 */
export function createPublicServer(
  config: ServerConfig,
  listener: RequestListener<typeof IncomingMessage, typeof MeteredResponse>,
  { metrics, logger }: { metrics: Metrics; logger: Logger },
): Server {
  const server = createServer(
    {
      IncomingMessage,
      ServerResponse: MeteredResponse,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      ...headersTimeouts(config.headersTimeoutMs),
      requireHostHeader: false,
    },
    listener,
  );
  server.maxConnections = config.maxConnections;
  let dropped = 0;
  let lastLogged = 0;
  server.on('drop', () => {
    metrics.droppedConnections.inc();
    dropped += 1;
    const now = Date.now();
    if (now - lastLogged < DROP_LOG_INTERVAL_MS) return;
    logger.warn({ max_connections: config.maxConnections, dropped }, 'Connection limit reached: closing new connections');
    lastLogged = now;
    dropped = 0;
  });
  answerUnparsedRequests(server, { metrics, logger, securityHeaders: securityHeaders(config.hsts)('/') });
  return server;
}
