// The rollout under load on the local Kubernetes cluster, for the cluster tests
// and `npm run rollout:demo -- --cluster`: steady traffic and a Chromium tab on
// /ja through the release's NodePort, a Prometheus following its ServiceMonitor,
// then a Helm change (an upgrade by tag, or a rollback) with --wait.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBinaries } from '../cluster-binaries.mjs';
import { PATHS } from '../cluster/layout.mjs';
import { releaseObjects, waitForNodePort } from '../cluster/release.mjs';
import { freePort } from '../lib/ports.mjs';
import { startPrometheus } from './prometheus.mjs';
import { waitFor } from '../lib/wait.mjs';
import { openTab } from './browser-tab.mjs';
import { buildsRunningNow, buildsSeenBetween } from './build-views.mjs';
import { startLoad } from './load-generator.mjs';
import { podBuild, releasePods, watchPods } from './pod-watch.mjs';
import { scrapeConfigsFor } from './service-monitor-scrape.mjs';
import { createTimeline, witnessNewBuild } from './witnesses.mjs';

const RATE_PER_SECOND = 60;
/** What visitors send: the three home pages, a page that does not exist, and the poll. */
export const CLUSTER_TARGETS = [
  { path: '/' },
  { path: '/ja' },
  { path: '/zh-CN' },
  { path: '/no-such-page', status: 404 },
  { path: '/builds/latest.json' },
];
const JAPANESE_MENU = { navigation: 'メインナビゲーション', link: 'ロールアウト' };
const SETTLE_MS = 3000;
const SCRAPE_INTERVAL = '1s';

/**
 * A Prometheus scraping each release as its ServiceMonitor says (and whatever `monitors`
 * name besides), every `scrapeInterval` (1 s unless given; the scrape's timeout too), with
 * the releases' PrometheusRule groups loaded (their alerts sent to `alertmanagerUrl`, if given);
 * on a free loopback port unless `listen` says where.
 * @param {{ release: string, namespace: string }[]} releaseRefs
 * @param {string} dir
 * @param {{ listen?: { address: string, port: number }, monitors?: Parameters<typeof scrapeConfigsFor>[0][], scrapeInterval?: string, alertmanagerUrl?: string }} [options]
 */
export async function startReleasePrometheus(
  releaseRefs,
  dir,
  { listen, monitors = [], scrapeInterval = SCRAPE_INTERVAL, alertmanagerUrl } = {},
) {
  const scrapeConfigs = monitors.flatMap((monitor) => scrapeConfigsFor(monitor, { kubeconfigFile: PATHS.adminKubeconfig, scrapeInterval }));
  const ruleFiles = [];
  for (const releaseRef of releaseRefs) {
    const [monitor] = await releaseObjects('servicemonitors.monitoring.coreos.com', releaseRef);
    if (!monitor)
      throw new Error(
        `rollout: release ${releaseRef.release} in ${releaseRef.namespace} has no ServiceMonitor; install it with serviceMonitor.enabled=true`,
      );
    scrapeConfigs.push(...scrapeConfigsFor(monitor, { kubeconfigFile: PATHS.adminKubeconfig, scrapeInterval }));
    for (const rule of await releaseObjects('prometheusrules.monitoring.coreos.com', releaseRef)) {
      const file = path.join(dir, `${releaseRef.namespace}-${rule.metadata.name}.rules.json`);
      writeFileSync(file, JSON.stringify({ groups: rule.spec.groups }));
      ruleFiles.push(file);
    }
  }
  // Built with the cluster (tools/cluster-binaries.mjs): Debian's has no Kubernetes discovery.
  const { prometheus: binary } = ensureBinaries(() => {}, ['prometheus']);
  return startPrometheus({
    dir,
    port: listen?.port ?? (await freePort()),
    listenAddress: listen?.address,
    scrapeConfigs,
    ruleFiles,
    scrapeInterval,
    binary,
    alertmanagerUrl,
  });
}

/**
 * Each ReplicaSet of the release: the build its pods run and how many it wants.
 * @param {{ release: string, namespace: string }} releaseRef
 * @returns {Promise<{ name: string, build: string, replicas: number }[]>}
 */
async function replicaSets(releaseRef) {
  /** @type {{ metadata: { name: string }, spec: { replicas: number, template: import('./pod-watch.mjs').PodTemplate } }[]} */
  const sets = await releaseObjects('replicasets', releaseRef);
  return sets.map((set) => ({ name: set.metadata.name, build: podBuild({ spec: set.spec.template.spec }), replicas: set.spec.replicas }));
}

/**
 * Runs `change` (a Helm command that moves the release from build `from` to `to`)
 * under load and returns what every witness saw, in the shape of the haproxy
 * rollout's result (scenario.mjs), so the same report draws it.
 * @param {{ releaseRef: { release: string, namespace: string }, nodePort: number, from: string, to: string, change: () => Promise<unknown>, log?: (line: string) => void }} options
 */
export async function runClusterRollout({ releaseRef, nodePort, from, to, change, log = () => {} }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-cluster-rollout-'));
  const baseUrl = `http://127.0.0.1:${nodePort}`;
  const timeline = createTimeline(log);
  const { mark } = timeline;
  /** @type {(() => Promise<unknown>)[]} */
  const cleanups = [];
  try {
    const prometheus = await startReleasePrometheus([releaseRef], dir);
    cleanups.push(prometheus.stop);
    await waitFor(
      `Prometheus to scrape the pods of ${from}`,
      async () => {
        const running = await buildsRunningNow(prometheus);
        if (Object.keys(running).join() !== from) throw new Error(`running: ${JSON.stringify(running)}`);
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    await waitForNodePort(releaseRef, nodePort);
    const load = startLoad({ baseUrl, ratePerSecond: RATE_PER_SECOND, targets: CLUSTER_TARGETS });
    cleanups.push(load.stop);
    timeline.origin = load.startedAt;
    mark('traffic-started', `${RATE_PER_SECOND} requests/s to the NodePort of ${releaseRef.release} (${from})`);
    const pods = watchPods(releaseRef, mark);
    cleanups.push(pods.stop);
    const tab = await openTab(`${baseUrl}/ja`, JAPANESE_MENU);
    cleanups.push(tab.close);
    mark('tab-opened', `tab opened on /ja of ${tab.firstBuild}`, { build: tab.firstBuild });
    await sleep(SETTLE_MS);

    const rollStartedAt = Date.now();
    await change();
    mark('ready', `helm returned: every pod of ${to} Ready`, { build: to });
    // helm --wait returns once the new pods are Ready; the old ones may still drain.
    await waitFor(
      `the pods of ${from} to be gone`,
      async () => {
        const left = (await releasePods(releaseRef)).filter((pod) => podBuild(pod) === from);
        if (left.length) throw new Error(`${left.length} left`);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const rollEndedAt = Date.now();
    mark('old-pods-gone', `every pod of ${from} gone`, { build: from });

    const after = await witnessNewBuild({ tab, prometheus, to, timeline, detectionMs: 30_000, timeoutMs: 30_000 });
    await sleep(SETTLE_MS);

    const traffic = await load.stop();
    await pods.stop();
    const rules = await prometheus.rules();
    return {
      builds: { from, to },
      settings: {
        ratePerSecond: RATE_PER_SECOND,
        via: `the NodePort of Service ${releaseRef.release} (kube-proxy, iptables)`,
        description: `A Helm release of two pods on a local Kubernetes cluster, moved from ${from} to ${to} with helm --wait while a load generator and a Chromium tab on /ja go through its Service's NodePort, and a Prometheus follows its ServiceMonitor.`,
      },
      traffic,
      replicaSets: await replicaSets(releaseRef),
      prometheus: {
        seenDuringRoll: await buildsSeenBetween(prometheus, rollStartedAt, rollEndedAt),
        runningAfter: after.runningAfter,
        buildUpdates: after.buildUpdates,
        ruleGroups: rules.map((group) => group.name),
      },
      browser: after.browser,
      events: timeline.sorted(),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup failed: ${error}`));
    rmSync(dir, { recursive: true, force: true });
  }
}
