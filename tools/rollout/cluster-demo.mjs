// The cluster half of `npm run rollout:demo -- --cluster`: the local cluster (started,
// or the one running), builds A and B imported, release A installed in a restricted
// namespace, then `helm upgrade` to B under load. The release is removed afterwards;
// the cluster keeps running (`npm run cluster:down` stops it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAppImages, CLUSTER_BUILDS } from '../cluster/app-images.mjs';
import { clusterUp } from '../cluster/bring-up.mjs';
import { installCustomResourceDefinitions } from '../cluster/custom-resources.mjs';
import { importDockerImages } from '../cluster/images.mjs';
import { kubectl } from '../cluster/kubectl.mjs';
import { createRestrictedNamespace, deployRelease, localClusterValues, uninstallRelease, writeValuesFile } from '../cluster/release.mjs';
import { engineAnswers } from '../docker-engine.mjs';
import { runClusterRollout } from './cluster-scenario.mjs';

const RELEASE = { release: 'meridian', namespace: 'meridian-demo' };
const NODE_PORT = 30090;

/** @param {(line: string) => void} log */
export async function runClusterDemo(log) {
  if (!engineAnswers())
    throw new Error('rollout:demo --cluster: no Docker engine answers `docker info`; start one first (the app images are built with it)');
  const { binaries } = await clusterUp(log);
  await importDockerImages(binaries, await buildAppImages(Object.values(CLUSTER_BUILDS), log));
  await installCustomResourceDefinitions();
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-demo-'));
  try {
    const valuesFile = path.join(dir, 'values.json');
    writeValuesFile(valuesFile, localClusterValues(NODE_PORT));
    await createRestrictedNamespace(RELEASE.namespace);
    log(`installing ${CLUSTER_BUILDS.a} as release ${RELEASE.release} in namespace ${RELEASE.namespace}`);
    await deployRelease({ ...RELEASE, valuesFile, tag: CLUSTER_BUILDS.a });
    return await runClusterRollout({
      releaseRef: RELEASE,
      nodePort: NODE_PORT,
      from: CLUSTER_BUILDS.a,
      to: CLUSTER_BUILDS.b,
      change: () => deployRelease({ ...RELEASE, valuesFile, tag: CLUSTER_BUILDS.b }),
      log,
    });
  } finally {
    await uninstallRelease(RELEASE);
    await kubectl(['delete', 'namespace', RELEASE.namespace, '--wait=false', '--ignore-not-found']);
    rmSync(dir, { recursive: true, force: true });
  }
}
