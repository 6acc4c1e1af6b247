import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import { isNamespace } from '@/i18n/namespaces';
import { installRouteHandoverKey } from '@/i18n/route-handover';
import { isLocale } from '@/shared/locales';
import { installObservability } from '@/shared/observability';
import { readBuildInfo } from './build-info';
import { loadBuildFiles } from './serving/builds/build-files';
import { followRelease } from './serving/canary/latest-of-release';
import { createPeerFiles } from './serving/canary/peer-files';
import { watchRelease } from './serving/canary/release-view';
import { ConfigError, readConfig, type ServerConfig } from './config';
import { createPublicServer } from './serving/public-server';
import { createRequestListener } from './serving/request-pipeline';
import { createCrawlerFiles } from './serving/crawlers/serve-crawler-files';
import { createMetricsServer } from './metrics-server';
import { routeConsoleToLogger } from './observability/console-to-logger';
import { bufferedStdout, createLogger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { startTracing } from './observability/tracing';
import { renderNotFoundTemplates } from './serving/next-compat/not-found/not-found-templates';
import { loadPageScriptHashes } from './serving/next-compat/prerendered-pages/prerendered-pages';
import { loadSiteFiles } from './serving/files/site-files';
import type { Readiness } from './serving/health/health';
import { requireFromStandalone } from './serving/next-compat/next-app';
import { routerStateCheck } from './serving/next-compat/next-adapter';
import { loadAnswersFromMemory } from './serving/next-compat/answers-from-memory';
import { createRenderer } from './rendering/renderer';
import { superviseRenderer } from './rendering/renderer-process';
import { createTelemetryServices } from './serving/telemetry/telemetry-services';
import { installFatalHandlers, installShutdown } from './shutdown';

/** The renderer's entry, compiled beside ours by src/build/build-server.mjs. */
const RENDERER_ENTRY = 'meridian-renderer.cjs';

function listen(server: Server, port: number, hostname: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The composition root: configuration, observability, servers, Next, shutdown. */
async function main(config: ServerConfig): Promise<void> {
  const dir = path.dirname(process.argv[1] ?? __filename);
  process.chdir(dir);
  // Before Next is loaded, so its spans join ours.
  const tracing = startTracing(config);
  const build = readBuildInfo(dir);
  const logDestination = bufferedStdout();
  const logger = createLogger(config, { service: config.tracing.serviceName, build_id: build.buildId }, logDestination);
  const exit = (code: number) => process.exit(code);
  installFatalHandlers(logger, exit);
  routeConsoleToLogger(logger);
  const metrics = createMetrics(build);
  installObservability({
    logger,
    localeLoadFailed: ({ locale, namespace, source }) =>
      metrics.localeLoadFailures.inc({
        locale: isLocale(locale) ? locale : 'other',
        namespace: isNamespace(namespace) ? namespace : 'other',
        source,
        page_build: 'self',
      }),
  });

  // The proxy inside Next believes the routing decisions handed over with this key only.
  const routeHandoverKey = randomBytes(18).toString('base64url');
  installRouteHandoverKey(routeHandoverKey);
  // The prerendered pages' links name SITE_URL's origin, or none (relative links): never the build's stand-in.
  const siteOrigin = config.siteUrl ?? '';
  if (!config.siteUrl) {
    logger.info({ sitemap: false }, 'Sitemap off: SITE_URL is unset, so the pages link relatively and robots.txt names no sitemap');
  }
  // During canary releases: which builds are live, asked of the stable and canary Services.
  const releaseServices = config.releaseServices;
  const readiness: Readiness = { nextReady: false, draining: false, releaseKnown: !releaseServices };
  const release = releaseServices
    ? watchRelease({
        self: { id: build.buildId, timestamp: build.builtAt },
        services: releaseServices,
        logger,
        onChange: () => (readiness.releaseKnown = true),
      })
    : null;
  void release?.refresh();
  const ownBuildFiles = loadBuildFiles(dir, config.buildPollIntervalMs);
  const telemetry = createTelemetryServices(config);
  if (telemetry.ownKey) {
    logger.warn(
      { telemetry_token_keys: false },
      'TELEMETRY_TOKEN_KEYS is unset: page-view tokens are signed with a key of this process only, so beacons reaching another replica are refused',
    );
  }
  // Before the renderer starts Next: answering from memory refuses a Next it was not checked against.
  const requireFromBuild = requireFromStandalone(dir);
  const fromMemory = config.nextAnswersAll ? null : loadAnswersFromMemory(dir, build.buildId, requireFromBuild, siteOrigin);
  // The pages held in memory have their scripts hashed already: each page is read and swapped once.
  const pageScriptHashes = fromMemory
    ? new Map([...fromMemory.pages].map(([route, page]) => [route, page.scriptHashes]))
    : loadPageScriptHashes(dir, siteOrigin);
  if (!fromMemory) {
    logger.warn(
      { next_answers_all: true },
      'NEXT_ANSWERS_ALL: Next renders the prerendered pages, their router payloads and the not-found pages; none comes from memory',
    );
  }
  // Next renders in a process of its own, so no render holds the thread that answers from memory.
  const rendererProcess = superviseRenderer({
    entry: path.join(dir, RENDERER_ENTRY),
    routeHandoverKey,
    logger,
    logDestination,
    metrics,
  });
  const publicServer = createPublicServer(
    config,
    createRequestListener({
      config,
      buildId: build.buildId,
      dir,
      logger,
      metrics,
      pageScriptHashes,
      fromMemory,
      crawlerFiles: createCrawlerFiles(config.siteUrl ?? undefined, pageScriptHashes.keys(), new Date(build.builtAt)),
      files: loadSiteFiles(dir),
      buildFiles: release ? followRelease(ownBuildFiles, release.current, config.buildPollIntervalMs) : ownBuildFiles,
      peerFiles:
        release && releaseServices ? createPeerFiles({ selfId: build.buildId, services: releaseServices, release, metrics }) : null,
      readiness,
      telemetry,
      renderer: createRenderer(rendererProcess, config.render, metrics),
      routerStateIsValid: routerStateCheck(requireFromBuild),
      routeHandoverKey,
    }),
    { metrics, logger },
  );
  const metricsServer = createMetricsServer(metrics.registry);
  await listen(publicServer, config.port, config.hostname);
  await listen(metricsServer, config.metricsPort, config.hostname);
  installShutdown({ config, publicServer, metricsServer, readiness, logger, tracing, renderer: rendererProcess, exit });

  const rendererPort = await rendererProcess.started;
  if (fromMemory) fromMemory.notFoundPages.templates = await renderNotFoundTemplates(rendererPort, { publicPort: config.port, logger });
  rendererProcess.lowerPriority();
  readiness.nextReady = true;
  logger.info(
    {
      version: build.version,
      revision: build.revision,
      node_version: process.version,
      port: config.port,
      metrics_port: config.metricsPort,
      tracing: config.tracing.enabled,
      renderer_pid: rendererProcess.pid(),
      render_concurrency: config.render.concurrency,
      render_queue: config.render.queue,
      not_found_templates: [...(fromMemory?.notFoundPages.templates.keys() ?? [])],
    },
    'Meridian ready',
  );
}

let config: ServerConfig;
try {
  config = readConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
main(config).catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 60, msg: 'Start-up failed', err: String(error) })}\n`);
  process.exit(1);
});
