import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { installRouteHandoverKey } from '@/i18n/route-handover';
import { installObservability } from '@/shared/observability';
import { readBuildInfo } from '@/server/build-info';
import { ConfigError, readConfig, type ServerConfig } from '@/server/config';
import { routeConsoleToLogger } from '@/server/observability/console-to-logger';
import { createLogger } from '@/server/observability/logger';
import { startTracing } from '@/server/observability/tracing';
import { loadNext } from '@/server/serving/next/next-app';
import { flushAndExit } from '@/server/shutdown';
import type { FromRenderer, ToRenderer } from './renderer-messages';

/**
 * The public port takes heads of up to 16 KiB; the serving process adds the requested path,
 * the routing decision (the path again, percent-encoded: up to three times its length, and
 * the page's internal path beside it) and the page's policy before handing one over, so the
 * renderer reads heads many times that.
 */
const MAX_HEADER_BYTES = 256 * 1024;
/** How often the renderer tells the serving process its CPU time and memory, for /metrics. */
const USAGE_INTERVAL_MS = 1000;

function send(message: FromRenderer): void {
  process.send?.(message);
}

function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function startMessage(): Promise<ToRenderer> {
  return new Promise((resolve) => process.once('message', (message: ToRenderer) => resolve(message)));
}

/**
 * The renderer: Next's request handler in a process of its own, on a private
 * loopback port that only the serving process talks to (src/server/rendering/render-proxy.ts).
 * It logs and traces as the serving process does, and lives as long as its IPC
 * channel: the serving process stops it by disconnecting, once its own requests
 * are drained, so the signals a terminal sends the whole process group are left
 * to the serving process.
 */
async function main(config: ServerConfig): Promise<void> {
  const dir = path.dirname(process.argv[1] ?? __filename);
  process.chdir(dir);
  const tracing = startTracing(config);
  const build = readBuildInfo(dir);
  const logger = createLogger(config, { service: config.tracing.serviceName, build_id: build.buildId, process: 'renderer' });
  const exit = (code: number) => process.exit(code);
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'Renderer: uncaught exception');
    flushAndExit(logger, exit, 1);
  });
  process.on('unhandledRejection', (error) => {
    logger.fatal({ err: error }, 'Renderer: unhandled rejection');
    flushAndExit(logger, exit, 1);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => {});
  routeConsoleToLogger(logger);
  installObservability({ logger, localeLoadFailed: (failure) => send({ type: 'locale-load-failed', failure }) });

  const { routeHandoverKey } = await startMessage();
  installRouteHandoverKey(routeHandoverKey);
  const next = await loadNext({ dir, port: config.port });
  // Its one client, the serving process, keeps a few connections open (render-proxy.ts): never
  // closing them idle spares it a reused connection reset under it.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => void next.handle(req, res));
  server.keepAliveTimeout = 0;
  const port = await listenOnLoopback(server);

  const usage = setInterval(() => {
    const cpu = process.cpuUsage();
    send({ type: 'usage', cpuSeconds: (cpu.user + cpu.system) / 1e6, residentBytes: process.memoryUsage.rss() });
  }, USAGE_INTERVAL_MS);
  usage.unref();
  process.once('disconnect', () => {
    clearInterval(usage);
    server.close();
    server.closeAllConnections();
    void (tracing?.shutdown() ?? Promise.resolve())
      .catch((error: unknown) => logger.warn({ err: error }, 'Renderer: flushing traces failed'))
      .finally(() => flushAndExit(logger, exit, 0));
  });
  send({ type: 'listening', port });
}

let config: ServerConfig;
try {
  config = readConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
if (!process.send) {
  process.stderr.write('meridian-renderer.cjs is started by meridian-server.cjs, never alone\n');
  process.exit(1);
}
main(config).catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 60, msg: 'Renderer start-up failed', err: String(error), process: 'renderer' })}\n`);
  process.exit(1);
});
