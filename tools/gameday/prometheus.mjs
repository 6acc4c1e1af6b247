// The game day's Prometheus: on the local cluster, one built with the cluster (Kubernetes
// discovery), following each release's ServiceMonitor as the Operator would, loading the
// rule groups of each release's PrometheusRule as the chart rendered them, and sending alerts
// to the game day's Alertmanager. On another cluster, the one there (its Operator picks up
// the same objects), reached at the address given.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBinaries } from '../cluster-binaries.mjs';
import { releaseObjects } from '../cluster/release.mjs';
import { freePort } from '../lib/ports.mjs';
import { startPrometheus } from '../rollout/prometheus.mjs';
import { scrapeConfigsFor } from '../rollout/service-monitor-scrape.mjs';

/**
 * The chart's ServiceMonitor interval of the game day (5 s), each scrape bounded by it: a
 * fault shows within seconds, and a pod slowed by the machine's load is not taken for down.
 */
const SCRAPE_INTERVAL = '5s';

/**
 * Starts Prometheus on loopback for `releases`; resolves once it is ready.
 * @param {{ access: import('./cluster-access.mjs').ClusterAccess, releases: { release: string, namespace: string }[], dir: string, alertmanagerUrl: string }} options
 */
export async function startReleasesPrometheus({ access, releases, dir, alertmanagerUrl }) {
  mkdirSync(dir, { recursive: true });
  const scrapeConfigs = [];
  const ruleFiles = [];
  for (const ref of releases) {
    const [monitor] = await releaseObjects('servicemonitors.monitoring.coreos.com', ref, access.kubectl);
    if (!monitor) throw new Error(`gameday: release ${ref.release} in ${ref.namespace} has no ServiceMonitor`);
    scrapeConfigs.push(...scrapeConfigsFor(monitor, { kubeconfigFile: access.kubeconfig, scrapeInterval: SCRAPE_INTERVAL }));
    for (const rule of await releaseObjects('prometheusrules.monitoring.coreos.com', ref, access.kubectl)) {
      const file = path.join(dir, `${ref.namespace}-${rule.metadata.name}.rules.json`);
      writeFileSync(file, JSON.stringify({ groups: rule.spec.groups }));
      ruleFiles.push(file);
    }
  }
  const { prometheus: binary } = ensureBinaries(() => {}, ['prometheus']);
  return startPrometheus({
    dir,
    port: await freePort(),
    scrapeConfigs,
    ruleFiles,
    scrapeInterval: SCRAPE_INTERVAL,
    binary,
    alertmanagerUrl,
  });
}

/**
 * The query API of the Prometheus at `url`, as the game day reads it.
 * @param {string} url @param {string} [step] the range queries' resolution
 * @returns {import('./diagnosis.mjs').PrometheusApi}
 */
export function prometheusAt(url, step = '5s') {
  /** @param {string} endpoint @param {Record<string, string>} params */
  async function api(endpoint, params) {
    const response = await fetch(`${url.replace(/\/$/, '')}/api/v1/${endpoint}?${new URLSearchParams(params)}`);
    const body = await response.json();
    if (body.status !== 'success')
      throw new Error(`gameday: Prometheus ${endpoint} ${JSON.stringify(params)}: ${body.error ?? response.status}`);
    return body.data.result;
  }
  return {
    query: (expr, time) => api('query', { query: expr, ...(time ? { time } : {}) }),
    queryRange: (expr, startMs, endMs) =>
      api('query_range', { query: expr, start: String(startMs / 1000), end: String(endMs / 1000), step }),
  };
}
