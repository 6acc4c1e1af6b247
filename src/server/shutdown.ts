import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { flushAccessLines } from './observability/access-log';
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
 * 3. no new connections; idle keep-alive connections close; in-flight requests (renders
 *    included) get SHUTDOWN_TIMEOUT_MS to finish, then are cut;
 * 4. the renderer's process is stopped (it flushes its own traces and logs);
 * 5. traces and logs are flushed, and the process exits 0.
 * A second signal exits at once.
 */
export function installShutdown(parts: ShutdownParts): void {
  const { config, publicServer, metricsServer, readiness, logger, tracing, renderer, exit } = parts;
  let stopping = false;

  const stop = async () => {
    const drained = await closed(publicServer, config.shutdownTimeoutMs);
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
