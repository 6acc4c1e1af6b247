// `npm run gameday`: the game day of tests/cluster/nodes/gameday.test.ts against the cluster in
// KUBECONFIG (the local one of `npm run cluster:up` by default). Prints the table
// (fault → alert → fired after → notified → resolved after) and writes it, with a picture
// of the timeline, to gameday-report/. Exits 1 unless every fault fired, was notified and
// resolved without noise. Cleans up after itself, even on Ctrl-C (SIGINT) or SIGTERM.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildAppImages, CLUSTER_BUILDS, IMAGE_REPOSITORY } from '../tools/cluster/app-images.mjs';
import { ensureDockerEngine } from '../tools/docker-engine.mjs';
import { clusterAccess } from '../tools/gameday/cluster-access.mjs';
import { noise, REPORT_HEADER, reportRows, writeReport } from '../tools/gameday/report.mjs';
import { startGameday } from '../tools/gameday/run.mjs';
import { ROOT } from '../tools/lib/app-server.mjs';
import { HELP, parseCommand, usageError } from '../tools/lib/cli.mjs';
import { runSync, succeeds } from '../tools/lib/command.mjs';
import { markdownTable } from '../tools/lib/table.mjs';

const USAGE = `Usage: npm run gameday -- [options]

  --namespace <name>      namespace of the game day's releases (default: meridian-gameday); made and
                          deleted by the game day; an existing one holding other workloads is refused
  --force                 run in an existing namespace beside its other workloads (touching only its own releases)
  --image <repo:tag>      a good build of Meridian in the local Docker engine (default on the local
                          cluster: meridian:${CLUSTER_BUILDS.a}, built here); its faulty variants are layered on it
                          and imported into the local cluster, or pushed to <repo> for another cluster
  --prometheus <url>      the cluster's Prometheus (its Operator loads the releases' ServiceMonitor and
                          PrometheusRule); default: one started here, scraping through the API server
  --alertmanager <url>    the Alertmanager that Prometheus sends to; default: one started here with
                          helm/meridian/files/alertmanager.yaml, notifying a webhook receiver of its own
  --jaeger <url>          Jaeger's query API; default on the local cluster: Jaeger v2 started here
  --otlp-endpoint <url>   where the pods send traces (app.otel.exporterOtlpEndpoint), with --jaeger
  --runbook-base-url <u>  prometheusRule.runbookBaseUrl (default: this checkout's docs/, served here)
  --values <file>         extra values for every release (repeatable), e.g. your ingress or pull secrets
  --help`;

const OPTIONS = /** @type {const} */ ({
  namespace: { type: 'string', default: 'meridian-gameday' },
  force: { type: 'boolean', default: false },
  image: { type: 'string' },
  prometheus: { type: 'string' },
  alertmanager: { type: 'string' },
  jaeger: { type: 'string' },
  'otlp-endpoint': { type: 'string' },
  'runbook-base-url': { type: 'string' },
  values: { type: 'string', multiple: true, default: /** @type {string[]} */ ([]) },
  help: HELP,
});

const { values: options } = parseCommand('gameday', USAGE, () => parseArgs({ options: OPTIONS }));

const log = (/** @type {string} */ line) => console.log(line);
const access = clusterAccess();
await ensureDockerEngine();
let image = options.image;
if (!image) {
  if (!access.local) usageError('gameday', USAGE, `--image is needed for the cluster of ${access.kubeconfig}: a build its nodes can pull`);
  [image] = await buildAppImages([CLUSTER_BUILDS.a], log);
}

const gameday = startGameday({
  access,
  namespace: options.namespace,
  image: image ?? `${IMAGE_REPOSITORY}:${CLUSTER_BUILDS.a}`,
  force: options.force,
  prometheusUrl: options.prometheus,
  alertmanagerUrl: options.alertmanager,
  jaegerUrl: options.jaeger,
  otlpEndpoint: options['otlp-endpoint'],
  runbookBaseUrl: options['runbook-base-url'],
  valuesFiles: options.values,
  log,
});
let interrupted = false;
/** Signals what we started (helm, kubectl, docker) and waits for them to exit, at most 10 s. @param {string} signal */
function stopChildren(signal) {
  runSync('pkill', ['--signal', signal, '--parent', String(process.pid)], { check: false });
  // 100 ms, blocking as the rest of this wait does, without a `sleep` process each time.
  const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  for (let waited = 0; waited < 100 && succeeds('pgrep', ['--parent', String(process.pid)]); waited += 1) pause();
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.once(signal, () => {
    interrupted = true;
    log(`gameday: ${signal}: cleaning up`);
    // The interrupted steps' commands first: a helm install left running outlives us.
    stopChildren('TERM');
    gameday
      .interrupt()
      .finally(() => stopChildren('KILL'))
      .finally(() => process.exit(130));
  });

const result = await gameday.result.catch((error) => {
  // Interrupted: the step under way fails as its namespace goes; the clean-up exits.
  if (interrupted) return /** @type {Promise<never>} */ (new Promise(() => {}));
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(`\n${markdownTable(REPORT_HEADER, reportRows(result), { aligned: true })}\n`);
if (result.tracing)
  console.log(
    `tracing: ${result.tracing.error ?? `trace ${result.tracing.trace?.traceId} found in Jaeger, its access log line carries it`}`,
  );
console.log(`healthy release: ${result.healthy.firing.length ? `fired ${result.healthy.firing.join(', ')}` : 'silent'}`);
const { table, timeline } = writeReport(result, path.join(ROOT, 'gameday-report'));
console.log(`report: ${path.relative(ROOT, table)}, timeline: ${path.relative(ROOT, timeline)}`);
const ok = result.faults.every((entry) => !entry.error && noise(entry).length === 0) && result.healthy.firing.length === 0;
process.exit(ok ? 0 : 1);
