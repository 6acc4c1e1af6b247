import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { HEALTH_PATH, READINESS_PATH } from '@/shared/site-paths';
import { flushAccessLines } from './observability/access-log';
import { RELAY_HEADER } from './serving/telemetry/beacon-relay';
import type { ServerConfig } from './config';
import type { Readiness } from './serving/health/health';
import type { Tracing } from './observability/tracing';
import type { RendererProcess } from './rendering/renderer-process';

interface ShutdownParts {
  config: Pick<ServerConfig, 'shutdownDelayMs' | 'shutdownTimeoutMs'>;
  publicServer: Server;
  metricsServer: Server;
  readiness: Readiness;
  logger: Logger;
  tracing: Tracing | null;
  renderer: Pick<RendererProcess, 'stop'>;
  exit: (code: number) => void;
}

/** How long the renderer gets to flush its traces and logs once its last render is answered. */
const RENDERER_STOP_MS = 5000;
/** How often to close keep-alive connections that went idle since the last look. */
const IDLE_SWEEP_MS = 250;
/** Past the delay, the port closes once no client has opened a connection for this long. */
const QUIET_MS = 1000;
/** How often to look whether they have stopped. */
const QUIET_CHECK_MS = 100;

/**
 * When a client last opened a connection since the shutdown began: the balancer still sends
 * here (kube-proxy's rules follow an endpoint's removal in 0.5 to 5 s on a busy 2-core node).
 * The kubelet's probes and other pods' relayed beacons reach the pod whatever the balancer
 * does: they are not counted.
 */
function watchNewClients(server: Server): () => number {
  const opened = new WeakSet<Socket>();
  let lastAt = 0;
  server.on('connection', (socket: Socket) => opened.add(socket));
  server.on('request', (req: IncomingMessage) => {
    if (!opened.delete(req.socket)) return;
    const pathname = (req.url ?? '').split('?', 1)[0];
    if (pathname === HEALTH_PATH || pathname === READINESS_PATH || req.headers[RELAY_HEADER] !== undefined) return;
    lastAt = Date.now();
  });
  return () => lastAt;
}

/** Waits until `lastClientAt` is QUIET_MS old, or `deadline`; whether it had to wait. */
async function untilQuiet(lastClientAt: () => number, deadline: number): Promise<boolean> {
  let waited = false;
  while (Date.now() - lastClientAt() < QUIET_MS && Date.now() < deadline) {
    waited = true;
    await sleep(QUIET_CHECK_MS);
  }
  return waited;
}

function closed(server: Server, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // A request in flight keeps its connection; once answered, the connection
    // idles and must be closed too, or close() would wait for the timeout.
    const sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const timer = setTimeout(() => {
      clearInterval(sweeper);
      resolve(false);
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweeper);
      clearTimeout(timer);
      resolve(true);
    });
    server.closeIdleConnections();
  });
}

/** Writes the access lines not yet logged and what pino still buffers, then exits. */
export function flushAndExit(logger: Logger, exit: (code: number) => void, code: number): void {
  flushAccessLines();
  logger.flush(() => exit(code));
}

/**
 * SIGTERM or SIGINT, as Kubernetes sends them
 * (https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#hook-handler-execution):
 * 1. /readyz answers 503 at once, and responses ask clients to close their connection;
 * 2. serving goes on for SHUTDOWN_DELAY_MS, while the load balancer notices and stops sending;
 *    past it, while clients still open connections (a balancer slower than the delay), until
 *    none has for a second, for at most half of SHUTDOWN_TIMEOUT_MS (a delay of 0 says there
 *    is no balancer to wait for);
 * 3. no new connections; idle keep-alive connections close; in-flight requests (renders
 *    included) get the rest of SHUTDOWN_TIMEOUT_MS to finish, then are cut;
 * 4. the renderer's process is stopped (it flushes its own traces and logs);
 * 5. traces and logs are flushed, and the process exits 0.
 * A second signal exits at once.
 */
export function installShutdown(parts: ShutdownParts): void {
  const { config, publicServer, metricsServer, readiness, logger, tracing, renderer, exit } = parts;
  let stopping = false;
  let lastClientAt = () => 0;

  const stop = async () => {
    const deadline = Date.now() + config.shutdownTimeoutMs;
    const waitedFrom = Date.now();
    if (config.shutdownDelayMs > 0 && (await untilQuiet(lastClientAt, waitedFrom + config.shutdownTimeoutMs / 2)))
      logger.info(
        { waited_ms: Date.now() - waitedFrom },
        'Clients still opened connections after the delay: the port stayed open until they stopped',
      );
    const drained = await closed(publicServer, Math.max(0, deadline - Date.now()));
    if (!drained) {
      logger.warn({ timeout_ms: config.shutdownTimeoutMs }, 'Shutdown timeout: cutting the requests still in flight');
      publicServer.closeAllConnections();
    }
    await renderer.stop(RENDERER_STOP_MS);
    metricsServer.close();
    metricsServer.closeAllConnections();
    await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'Flushing traces failed'));
    logger.info({ drained }, 'Shutdown complete');
    flushAndExit(logger, exit, 0);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'Second signal: exiting now');
      flushAndExit(logger, exit, 1);
      return;
    }
    stopping = true;
    readiness.draining = true;
    lastClientAt = watchNewClients(publicServer);
    logger.info({ signal, delay_ms: config.shutdownDelayMs, timeout_ms: config.shutdownTimeoutMs }, 'Shutting down: draining');
    setTimeout(() => void stop(), config.shutdownDelayMs);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** An uncaught exception or unhandled rejection leaves the process in an unknown state: log it and exit 1. */
export function installFatalHandlers(logger: Logger, exit: (code: number) => void): void {
  const fatal = (kind: string) => (error: unknown) => {
    logger.fatal({ err: error }, kind);
    flushAndExit(logger, exit, 1);
  };
  process.on('uncaughtException', fatal('Uncaught exception'));
  process.on('unhandledRejection', fatal('Unhandled rejection'));
}
