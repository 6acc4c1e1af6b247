// Argo Rollouts' controller in the local cluster, installed as its own docs say
// (`kubectl apply` of manifests/install.yaml into the argo-rollouts namespace), from the
// pinned module's manifests/cluster-install (its CRDs, roles and Deployment; install.yaml
// is generated from it), through a kustomization of our own that only swaps the image:
// there is no registry here, so the controller built from the same module is put in a
// one-binary image and imported into containerd, as CoreDNS is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtBinary, ensureBinaries } from '../cluster-binaries.mjs';
import { kubectlBinary } from '../kubernetes-clients.mjs';
import { run } from '../lib/command.mjs';
import { PINS } from '../pins.mjs';
import { crdFiles } from './custom-resources.mjs';
import { kubectl } from './kubectl.mjs';
import { importArchive } from './images.mjs';
import { PATHS } from './layout.mjs';
import { writeBinaryImage } from './oci-image.mjs';

export const ARGO_NAMESPACE = 'argo-rollouts';
export const ARGO_IMAGE = `meridian.local/argo-rollouts:v${PINS['argo-rollouts'].version}`;
/** The image install.yaml names, which our kustomization replaces. */
const UPSTREAM_IMAGE = 'quay.io/argoproj/argo-rollouts';

/** The module's manifests/cluster-install folder (beside the CRD files tools/argo-rollouts pins). */
function clusterInstallDir() {
  const [rolloutCrd] = crdFiles('tools/argo-rollouts');
  if (!rolloutCrd) throw new Error('argo-rollouts: no CRD files found in the pinned module');
  return path.join(path.dirname(path.dirname(rolloutCrd)), 'cluster-install');
}

/**
 * The kustomization a user without a registry writes: upstream's cluster install, in its
 * namespace, with the image they imported (never pulled).
 * @param {string} dir where the kustomization.yaml goes (kustomize wants the base relative to it)
 */
function kustomization(dir) {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: ARGO_NAMESPACE,
    resources: [path.relative(dir, clusterInstallDir())],
    images: [{ name: UPSTREAM_IMAGE, newName: ARGO_IMAGE.split(':')[0], newTag: ARGO_IMAGE.split(':')[1] }],
    patches: [
      {
        target: { kind: 'Deployment', name: 'argo-rollouts' },
        patch: JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/imagePullPolicy', value: 'Never' }]),
      },
    ],
  };
}

/**
 * Builds the controller's image (the pinned build, as user 999 as upstream's image runs),
 * imports it, applies the install and waits for the controller to be available.
 * Idempotent: a second call re-applies the same objects.
 * @param {(line: string) => void} log
 */
export async function installArgoRollouts(log) {
  const binaries = ensureBinaries(log, ['argo-rollouts', 'containerd']);
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-argo-rollouts-'));
  try {
    const archive = path.join(work, 'image.tar');
    writeBinaryImage({
      ref: ARGO_IMAGE,
      binary: builtBinary(binaries, 'rollouts-controller'),
      entrypoint: ['/rollouts-controller'],
      user: '999:999',
      exposedPorts: ['8080/tcp', '8090/tcp'],
      archive,
    });
    log(`argo-rollouts: importing ${ARGO_IMAGE}`);
    await importArchive(binaries, archive);
    writeFileSync(path.join(work, 'kustomization.yaml'), JSON.stringify(kustomization(work)));
    await kubectl(['create', 'namespace', ARGO_NAMESPACE, '--dry-run=client', '--output=json']).then(({ stdout }) =>
      kubectl(['apply', '-f', '-'], { input: stdout }),
    );
    // Server-side: the CRDs are too large for client-side apply's annotation.
    log('argo-rollouts: applying the cluster install');
    await kubectl(['apply', '--server-side', '--force-conflicts', '-k', work]);
    await kubectl(['rollout', 'status', 'deployment/argo-rollouts', '--namespace', ARGO_NAMESPACE, '--timeout=180s']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `kubectl argo rollouts <args>`: kubectl finds the plugin (built from the same module) on PATH,
 * as after `eval "$(npm run --silent cluster:up)"`.
 * @param {string[]} args
 */
export function argoRollouts(args) {
  const pluginDir = path.dirname(
    builtBinary(
      ensureBinaries(() => {}, ['argo-rollouts']),
      'kubectl-argo-rollouts',
    ),
  );
  const env = { ...process.env, KUBECONFIG: PATHS.adminKubeconfig, PATH: `${pluginDir}:${process.env.PATH ?? ''}` };
  return run(kubectlBinary(), ['argo', 'rollouts', ...args], { env });
}

/** The controller's metrics Service as a ServiceMonitor would select it, for a Prometheus following it. */
export const ARGO_METRICS_MONITOR = {
  metadata: { name: 'argo-rollouts', namespace: ARGO_NAMESPACE },
  spec: { selector: { matchLabels: { 'app.kubernetes.io/name': 'argo-rollouts-metrics' } }, endpoints: [{ port: 'metrics' }] },
};
