// The custom metrics API (custom.metrics.k8s.io) a HorizontalPodAutoscaler reads each pod's
// requests per second from: prometheus-adapter, built from its pinned Go module, deployed
// from that module's own manifests (deploy/manifests) through kubectl's kustomize. Those
// manifests make it a stand-in for metrics-server; the overlay serves custom metrics instead,
// with the chart's own rule (helm/meridian/files/prometheus-adapter-rules.yaml), our image
// and the Prometheus it is given. One replica: nothing here drains while it runs.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../lib/app-server.mjs';
import { waitFor } from '../lib/wait.mjs';
import { moduleSourceDir } from './custom-resources.mjs';
import { kubectl } from './kubectl.mjs';
import { SYSTEM_IMAGES } from './layout.mjs';

const UPSTREAM_IMAGE = 'registry.k8s.io/prometheus-adapter/prometheus-adapter';
const NAMESPACE = 'monitoring';
const API_SERVICE = 'v1beta1.custom.metrics.k8s.io';
const ADAPTER_RULES = path.join(ROOT, 'helm/meridian/files/prometheus-adapter-rules.yaml');

/**
 * The module's objects kept: its account, its rights to read the objects it names metrics
 * after and to check callers through the API server, its Service, Deployment and open
 * NetworkPolicy. Left out: the metrics.k8s.io APIService and roles (metrics-server's), the
 * ConfigMap of resource rules (ours replaces it) and the budget (one replica). The HPA
 * controller's own bootstrap role already reads custom.metrics.k8s.io.
 */
const UPSTREAM_FILES = [
  'service-account.yaml',
  'cluster-role.yaml',
  'cluster-role-binding.yaml',
  'cluster-role-binding-delegator.yaml',
  'role-binding-auth-reader.yaml',
  'service.yaml',
  'deployment.yaml',
  'network-policy.yaml',
];

/**
 * prometheus-adapter's objects as its project ships them, serving the custom metrics API
 * from the Prometheus at `prometheusUrl`: YAML for `kubectl apply -f -`.
 * @param {{ prometheusUrl: string }} options
 */
export async function prometheusAdapterManifest({ prometheusUrl }) {
  const overlay = mkdtempSync(path.join(tmpdir(), 'meridian-prometheus-adapter-'));
  try {
    const manifests = path.join(moduleSourceDir('tools/prometheus-adapter', 'sigs.k8s.io/prometheus-adapter'), 'deploy/manifests');
    for (const file of UPSTREAM_FILES) copyFileSync(path.join(manifests, file), path.join(overlay, file));
    const extra = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'adapter-config', namespace: NAMESPACE },
        data: { 'config.yaml': JSON.stringify({ rules: parse(readFileSync(ADAPTER_RULES, 'utf8')).rules }) },
      },
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: API_SERVICE },
        spec: {
          group: 'custom.metrics.k8s.io',
          version: 'v1beta1',
          groupPriorityMinimum: 100,
          versionPriority: 100,
          // As the module's own APIService: the adapter serves a certificate it made itself.
          insecureSkipTLSVerify: true,
          service: { name: 'prometheus-adapter', namespace: NAMESPACE },
        },
      },
    ];
    writeFileSync(path.join(overlay, 'ours.yaml'), extra.map((object) => JSON.stringify(object)).join('\n---\n'));
    const [name, tag] = SYSTEM_IMAGES.prometheusAdapter.split(':');
    const container = '/spec/template/spec/containers/0';
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [...UPSTREAM_FILES, 'ours.yaml'],
      images: [{ name: UPSTREAM_IMAGE, newName: name, newTag: tag }],
      patches: [
        {
          target: { kind: 'Deployment', name: 'prometheus-adapter' },
          patch: JSON.stringify([
            { op: 'replace', path: '/spec/replicas', value: 1 },
            { op: 'replace', path: `${container}/imagePullPolicy`, value: 'Never' },
            { op: 'replace', path: `${container}/args/2`, value: '--metrics-relist-interval=15s' },
            { op: 'replace', path: `${container}/args/3`, value: `--prometheus-url=${prometheusUrl}` },
            // Ready as soon as it serves, not after the module's 30 s.
            { op: 'replace', path: `${container}/readinessProbe/initialDelaySeconds`, value: 2 },
          ]),
        },
      ],
    };
    writeFileSync(path.join(overlay, 'kustomization.yaml'), JSON.stringify(kustomization));
    return (await kubectl(['kustomize', overlay])).stdout;
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
}

/**
 * Applies prometheus-adapter reading `prometheusUrl` and waits until the API server finds
 * the custom metrics API available.
 * @param {{ prometheusUrl: string, timeoutMs?: number }} options
 */
export async function startPrometheusAdapter({ prometheusUrl, timeoutMs = 120_000 }) {
  await kubectl(['apply', '--server-side', '-f', '-'], { input: await prometheusAdapterManifest({ prometheusUrl }) });
  await waitFor(
    'the custom metrics API to be available',
    () => kubectl(['wait', '--for=condition=Available', '--timeout=10s', `apiservice/${API_SERVICE}`]),
    { timeoutMs, intervalMs: 1_000 },
  );
}

/**
 * Removes the adapter, its APIService first: while an APIService is unavailable the API
 * server cannot list every kind, so no namespace could finish deleting.
 */
export async function stopPrometheusAdapter() {
  await kubectl(['delete', '--ignore-not-found', `apiservice/${API_SERVICE}`]);
  await kubectl(['delete', '--ignore-not-found', '--wait', '-f', '-'], {
    input: await prometheusAdapterManifest({ prometheusUrl: 'http://unused' }),
  });
}

/**
 * Resolves once the custom metrics API serves `metric` for at least `pods` pods of
 * `namespace`, and returns each pod's value (per second).
 * @param {{ namespace: string, metric: string, pods?: number, timeoutMs?: number }} options
 */
export async function waitForPodsMetric({ namespace, metric, pods = 1, timeoutMs = 120_000 }) {
  return waitFor(
    `the custom metrics API to serve ${metric} for ${pods} pod${pods === 1 ? '' : 's'} of ${namespace}`,
    async () => {
      const { stdout } = await kubectl(['get', '--raw', `/apis/custom.metrics.k8s.io/v1beta1/namespaces/${namespace}/pods/*/${metric}`]);
      /** @type {{ items: { describedObject: { name: string }, value: string }[] }} */
      const list = JSON.parse(stdout);
      if (list.items.length < pods) throw new Error(`${list.items.length} served`);
      return Object.fromEntries(list.items.map((item) => [item.describedObject.name, item.value]));
    },
    { timeoutMs, intervalMs: 2_000 },
  );
}
