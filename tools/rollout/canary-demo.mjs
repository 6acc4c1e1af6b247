// The cluster half of `npm run rollout:demo -- --cluster --canary`: the local cluster
// (started, or the one running), builds A and B imported, Argo Rollouts installed, a
// Prometheus the controller queries, release A installed with `rollout.strategy: canary`,
// then `helm upgrade` to B under load and tabs until Argo promotes or aborts it. Before the
// release goes it reads back what `kubectl argo rollouts get rollout` shows of it and the
// failures its visitors' browsers reported. The release and its namespace are removed
// afterwards; the cluster and the controller stay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAppImages, CLUSTER_BUILDS } from '../cluster/app-images.mjs';
import { ARGO_METRICS_MONITOR, argoRollouts, installArgoRollouts } from '../cluster/argo-rollouts.mjs';
import { clusterUp } from '../cluster/bring-up.mjs';
import { installCustomResourceDefinitions } from '../cluster/custom-resources.mjs';
import { importDockerImages } from '../cluster/images.mjs';
import { kubectl } from '../cluster/kubectl.mjs';
import { createRestrictedNamespace, deployRelease, localClusterValues, uninstallRelease, writeValuesFile } from '../cluster/release.mjs';
import { ensureBrowser } from '../debian-packages.mjs';
import { engineAnswers } from '../docker-engine.mjs';
import { waitFor } from '../lib/wait.mjs';
import { CANARY_SCRAPE_INTERVAL, canaryValues, nodePrometheus, runCanary } from './canary-scenario.mjs';
import { pausedInconclusive } from './canary-watch.mjs';
import { startReleasePrometheus } from './cluster-scenario.mjs';

const RELEASE = { release: 'meridian', namespace: 'meridian-canary-demo' };
const NODE_PORT = 30095;

/**
 * The failures the release's pods counted from its visitors' browsers, by kind: chunk
 * failures (chunk_reload, chunk_reload_blocked), router payload and build file fetches, locale loads.
 * @param {Awaited<ReturnType<typeof startReleasePrometheus>>} prometheus
 */
async function browserFailures(prometheus) {
  const scope = `namespace="${RELEASE.namespace}"`;
  /** @param {string} expr */
  const total = async (expr) => Number((await prometheus.query(`sum(${expr}) or vector(0)`))[0]?.value[1] ?? 0);
  return {
    chunks: await total(`meridian_client_events_total{${scope}, event=~"chunk_reload|chunk_reload_blocked"}`),
    fetches: await total(`meridian_manifest_fetch_failures_total{${scope}}`),
    locales: await total(`meridian_locale_load_failures_total{${scope}, source="client"}`),
  };
}

/** @param {(line: string) => void} log */
export async function runCanaryDemo(log) {
  if (!engineAnswers())
    throw new Error(
      'rollout:demo --cluster --canary: no Docker engine answers `docker info`; start one first (the app images are built with it)',
    );
  // Its visitors are Chromium's tabs: on a new machine, Debian's package is installed first.
  ensureBrowser();
  const { binaries } = await clusterUp(log);
  await importDockerImages(binaries, await buildAppImages(Object.values(CLUSTER_BUILDS), log));
  await installCustomResourceDefinitions();
  await installArgoRollouts(log);
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-canary-demo-'));
  /** @type {Awaited<ReturnType<typeof startReleasePrometheus>> | undefined} */
  let prometheus;
  try {
    const node = await nodePrometheus();
    const valuesFile = path.join(dir, 'values.json');
    writeValuesFile(valuesFile, localClusterValues(NODE_PORT, canaryValues({ prometheusAddress: node.address })));
    await createRestrictedNamespace(RELEASE.namespace);
    log(`installing ${CLUSTER_BUILDS.a} as release ${RELEASE.release} in namespace ${RELEASE.namespace}, rollout.strategy canary`);
    await deployRelease({ ...RELEASE, valuesFile, tag: CLUSTER_BUILDS.a, canary: true });
    // The plugin fails at once while the controller has not yet read the Rollout's Deployment: asked again.
    await waitFor(
      'the Rollout of A to be Healthy',
      () => argoRollouts(['status', RELEASE.release, '--namespace', RELEASE.namespace, '--timeout', '120s']),
      { timeoutMs: 300_000, intervalMs: 2000 },
    );
    prometheus = await startReleasePrometheus([RELEASE], dir, {
      listen: node.listen,
      monitors: [ARGO_METRICS_MONITOR],
      scrapeInterval: CANARY_SCRAPE_INTERVAL,
    });
    const result = await runCanary({
      releaseRef: RELEASE,
      nodePort: NODE_PORT,
      change: () => deployRelease({ ...RELEASE, valuesFile, tag: CLUSTER_BUILDS.b, canary: true }),
      until: (sample) =>
        (sample.canaryBuild === null && sample.stableBuild === CLUSTER_BUILDS.b && sample.phase === 'Healthy') || sample.aborted,
      untilLabel: `Argo Rollouts to promote or abort ${CLUSTER_BUILDS.b}`,
      // Paused without enough data, it waits for a person: the report shows the analyses.
      giveUpWhen: pausedInconclusive,
      log,
    });
    const { stdout } = await argoRollouts(['get', 'rollout', RELEASE.release, '--namespace', RELEASE.namespace]);
    // The plugin colours its output even without a terminal.
    return { ...result, rolloutView: stdout.replace(/\x1b\[[0-9;]*m/g, ''), browserFailures: await browserFailures(prometheus) };
  } finally {
    await prometheus?.stop();
    await uninstallRelease(RELEASE);
    await kubectl(['delete', 'namespace', RELEASE.namespace, '--wait=false', '--ignore-not-found']);
    rmSync(dir, { recursive: true, force: true });
  }
}
