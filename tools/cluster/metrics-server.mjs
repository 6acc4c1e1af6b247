// The resource metrics API (metrics.k8s.io) a HorizontalPodAutoscaler reads CPU from:
// metrics-server, built from its pinned Go module, deployed from that module's own
// manifests (manifests/base) through kubectl's kustomize, with an overlay that only
// swaps in our image, never pulled. It checks the kubelets' serving certificates
// against the cluster's CA, which its service account is handed, and the API server
// reaches it through the aggregation layer (components.mjs, pki.mjs).
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '../lib/wait.mjs';
import { moduleSourceDir } from './custom-resources.mjs';
import { kubectl } from './kubectl.mjs';
import { SYSTEM_IMAGES } from './layout.mjs';

const UPSTREAM_IMAGE = 'gcr.io/k8s-staging-metrics-server/metrics-server';
const API_SERVICE = 'v1beta1.metrics.k8s.io';

/** metrics-server's objects as its project ships them, with our image: YAML for `kubectl apply -f -`. */
export async function metricsServerManifest() {
  const overlay = mkdtempSync(path.join(tmpdir(), 'meridian-metrics-server-'));
  try {
    // Kustomize takes a base only by a path inside the overlay.
    symlinkSync(
      path.join(moduleSourceDir('tools/metrics-server', 'sigs.k8s.io/metrics-server'), 'manifests/base'),
      path.join(overlay, 'base'),
    );
    const [name, tag] = SYSTEM_IMAGES.metricsServer.split(':');
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['base'],
      images: [{ name: UPSTREAM_IMAGE, newName: name, newTag: tag }],
      patches: [
        {
          target: { kind: 'Deployment', name: 'metrics-server' },
          patch: JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/imagePullPolicy', value: 'Never' }]),
        },
      ],
    };
    writeFileSync(path.join(overlay, 'kustomization.yaml'), JSON.stringify(kustomization));
    return (await kubectl(['kustomize', overlay])).stdout;
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
}

/** Applies metrics-server; its API answers once it has scraped the kubelets (waitForMetricsApi). */
export async function startMetricsServer() {
  await kubectl(['apply', '--server-side', '-f', '-'], { input: await metricsServerManifest() });
}

/**
 * Resolves once the API server finds the metrics API available. Until then it cannot list
 * every kind of object, so it cannot finish deleting a namespace.
 */
export async function waitForMetricsApiService(timeoutMs = 120_000) {
  await kubectl(['wait', '--for=condition=Available', `--timeout=${Math.round(timeoutMs / 1000)}s`, `apiservice/${API_SERVICE}`]);
}

/**
 * Resolves once the metrics API serves every pod of `namespace` (at least `pods` of them):
 * what an autoscaler needs before its first decision.
 * @param {{ namespace: string, pods?: number, timeoutMs?: number }} options
 */
export async function waitForMetricsApi({ namespace, pods = 1, timeoutMs = 120_000 }) {
  await waitForMetricsApiService(timeoutMs);
  await waitFor(
    `the metrics API to serve ${pods} pod${pods === 1 ? '' : 's'} of ${namespace}`,
    async () => {
      const { stdout } = await kubectl(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/namespaces/${namespace}/pods`]);
      const served = JSON.parse(stdout).items.length;
      if (served < pods) throw new Error(`${served} served`);
    },
    { timeoutMs, intervalMs: 2_000 },
  );
}
