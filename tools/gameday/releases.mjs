// The game day's releases: one per fault and a healthy one, side by side in one namespace,
// each installed and changed with the command of docs/operations.md#helm from a values file
// of its own (the game day's alert tuning, the trace collector, a NodePort to reach it).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CHART_DIR } from '../cluster/release.mjs';
import { gamedayRuleValues } from './alert-tuning.mjs';

/** The Deployment, Services and scrape job carry `<release>-meridian` (the chart's full name). */
export const fullnameOf = (/** @type {string} */ release) => `${release}-meridian`;
/** The scrape job, the metrics Service's name, as the Prometheus Operator names jobs. */
export const jobOf = (/** @type {string} */ release) => `${fullnameOf(release)}-metrics`;

/**
 * The values every game day release runs with.
 * @param {{ repository: string, local: boolean, otlpEndpoint: string | null, runbookBaseUrl: string, extra?: Record<string, unknown> }} options
 */
export function gamedayValues({ repository, local, otlpEndpoint, runbookBaseUrl, extra = {} }) {
  return {
    image: { repository, pullPolicy: local ? 'Never' : 'IfNotPresent' },
    // One pod each: eight releases share the machine, and one pod makes "every pod" simple.
    replicaCount: 1,
    service: { type: 'NodePort' },
    app: {
      logLevel: 'info',
      buildPollIntervalMs: 5000,
      otel: otlpEndpoint ? { exporterOtlpEndpoint: otlpEndpoint, env: { OTEL_BSP_SCHEDULE_DELAY: '500' } } : {},
    },
    serviceMonitor: { enabled: true, interval: '5s', scrapeTimeout: '5s' },
    prometheusRule: gamedayRuleValues({ runbookBaseUrl }),
    ...extra,
  };
}

/**
 * A release of the game day: its values file, and the command that installs and changes it.
 * @param {{ access: import('./cluster-access.mjs').ClusterAccess, namespace: string, release: string, values: object, dir: string, valuesFiles?: string[] }} options
 */
export function gamedayRelease({ access, namespace, release, values, dir, valuesFiles = [] }) {
  mkdirSync(dir, { recursive: true });
  const valuesFile = path.join(dir, `${release}.values.json`);
  writeFileSync(valuesFile, `${JSON.stringify(values, null, 2)}\n`);
  const fullname = fullnameOf(release);
  /**
   * Its web pods, terminating ones included.
   * @returns {Promise<{ metadata: { name: string, deletionTimestamp?: string }, spec: { containers: { image: string }[] } }[]>}
   */
  async function webPods() {
    const { stdout } = await access.kubectl([
      'get',
      'pods',
      '--namespace',
      namespace,
      '--selector',
      `app.kubernetes.io/instance=${release},app.kubernetes.io/component=web`,
      '--output',
      'json',
    ]);
    return JSON.parse(stdout).items;
  }
  return {
    release,
    namespace,
    fullname,
    job: jobOf(release),
    /**
     * `helm upgrade --install <release> helm/meridian --namespace <ns> --wait --timeout 5m
     *  --values <user's files> --values <file> --set-string image.tag=<tag>`
     * @param {{ tag: string, wait?: boolean, forceConflicts?: boolean }} options
     */
    deploy: ({ tag, wait = true, forceConflicts = false }) =>
      access.helm([
        'upgrade',
        '--install',
        release,
        CHART_DIR,
        '--namespace',
        namespace,
        ...(wait ? ['--wait', '--timeout', '5m'] : []),
        ...(forceConflicts ? ['--force-conflicts'] : []),
        ...[...valuesFiles, valuesFile].flatMap((file) => ['--values', file]),
        '--set-string',
        `image.tag=${tag}`,
      ]),
    /** The node port of its Service. */
    async nodePort() {
      const { stdout } = await access.kubectl([
        'get',
        'service',
        fullname,
        '--namespace',
        namespace,
        '--output',
        'jsonpath={.spec.ports[0].nodePort}',
      ]);
      return Number(stdout);
    },
    webPods,
    /** Its web pods (not terminating), by name. */
    async webPodNames() {
      return (await webPods()).filter((pod) => !pod.metadata.deletionTimestamp).map((pod) => pod.metadata.name);
    },
    /** Removes it, and what a failed removal left of it (helm's own records included). */
    async uninstall() {
      try {
        await access.helm(['uninstall', release, '--namespace', namespace, '--wait', '--timeout', '2m', '--ignore-not-found']);
      } catch {
        const selector = `app.kubernetes.io/instance=${release}`;
        await access.kubectl([
          'delete',
          'all,configmaps,servicemonitors,prometheusrules,poddisruptionbudgets',
          '--namespace',
          namespace,
          '--selector',
          selector,
          '--ignore-not-found',
        ]);
        await access.kubectl([
          'delete',
          'secrets',
          '--namespace',
          namespace,
          '--selector',
          `owner=helm,name=${release}`,
          '--ignore-not-found',
        ]);
      }
    },
  };
}
