// Prometheus as a child process on loopback, for the tests and the rollout
// scenarios: it scrapes app processes' metrics ports and loads rules. Debian's by
// default; the cluster's runs the one built beside Kubernetes (with Kubernetes discovery).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDaemon } from '../lib/daemon.mjs';
import { answers200 } from '../lib/wait.mjs';

const PROMETHEUS_PATH = '/usr/bin/prometheus';
/** Longer than any query of these scenarios takes, well below their waits. */
const QUERY_TIMEOUT_MS = 20_000;

/**
 * @typedef {{ metric: Record<string, string>, values: [number, string][] }} RangeSeries
 * @typedef {{ metric: Record<string, string>, value: [number, string] }} InstantSample
 */

/**
 * Starts Prometheus on `port`, scraping `targets` (host:port) as job `meridian`
 * every `scrapeInterval` (it also bounds each scrape), or by the given
 * `scrapeConfigs` instead, evaluating `ruleFiles` every second and sending their alerts
 * to the Alertmanager at `alertmanagerUrl` if one is named; its config and
 * storage live in `dir`. Resolves once /-/ready answers.
 * `binary` is Debian's Prometheus unless another is named. It listens on loopback unless
 * `listenAddress` names another of this machine's addresses (the cluster node's, for a
 * controller in a pod that queries it).
 * @param {{ dir: string, port: number, targets?: string[], scrapeConfigs?: object[], ruleFiles?: string[], scrapeInterval?: string, binary?: string, listenAddress?: string, alertmanagerUrl?: string }} options
 */
export async function startPrometheus({
  dir,
  port,
  targets = [],
  scrapeConfigs,
  ruleFiles = [],
  scrapeInterval = '1s',
  binary = PROMETHEUS_PATH,
  listenAddress = '127.0.0.1',
  alertmanagerUrl,
}) {
  const configFile = path.join(dir, 'prometheus.yml');
  // JSON is YAML: no YAML writer needed for a config this small.
  writeFileSync(
    configFile,
    JSON.stringify({
      global: { scrape_interval: scrapeInterval, scrape_timeout: scrapeInterval, evaluation_interval: '1s' },
      rule_files: ruleFiles,
      ...(alertmanagerUrl ? { alerting: { alertmanagers: [{ static_configs: [{ targets: [new URL(alertmanagerUrl).host] }] }] } } : {}),
      scrape_configs: scrapeConfigs ?? [{ job_name: 'meridian', static_configs: [{ targets }] }],
    }),
  );
  const url = `http://${listenAddress}:${port}`;
  const prometheus = await startDaemon({
    name: 'prometheus',
    command: binary,
    args: [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'prometheus-data')}`,
      `--web.listen-address=${listenAddress}:${port}`,
      '--log.level=warn',
    ],
    ready: () => answers200(`${url}/-/ready`),
    readyTimeoutMs: 20_000,
  });

  /**
   * @param {string} endpoint
   * @param {Record<string, string>} params
   */
  async function api(endpoint, params) {
    // A query unanswered this long is an error to see, not a wait without end.
    const response = await fetch(`${url}/api/v1/${endpoint}?${new URLSearchParams(params)}`, {
      signal: AbortSignal.timeout(QUERY_TIMEOUT_MS),
    });
    const body = await response.json();
    if (body.status !== 'success')
      throw new Error(`prometheus: ${endpoint} ${JSON.stringify(params)} failed: ${body.error ?? response.status}`);
    return body.data.result;
  }

  return {
    url,
    /**
     * An instant query, now or at `time` (Unix seconds); rejects with Prometheus's error.
     * @param {string} expr
     * @param {string} [time]
     * @returns {Promise<InstantSample[]>}
     */
    query: (expr, time) => api('query', { query: expr, ...(time ? { time } : {}) }),
    /**
     * The rule groups Prometheus loaded.
     * @returns {Promise<{ name: string, rules: object[] }[]>}
     */
    async rules() {
      const response = await fetch(`${url}/api/v1/rules`);
      const body = await response.json();
      return body.data.groups;
    },
    /**
     * @param {string} expr
     * @param {number} startMs
     * @param {number} endMs
     * @returns {Promise<RangeSeries[]>}
     */
    queryRange: (expr, startMs, endMs) =>
      api('query_range', { query: expr, start: String(startMs / 1000), end: String(endMs / 1000), step: scrapeInterval }),
    stop: () => prometheus.stop(),
  };
}
