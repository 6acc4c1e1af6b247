// The cluster half of `npm run rollout:demo -- --cluster --drain`: the local cluster of three
// nodes (started, or the one running at that size), build A imported and installed with both
// pods on the last node, then that node drained under load (tools/rollout/drain-scenario.mjs).
// The release is removed and the node uncordoned afterwards; the cluster keeps running.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAppImages, CLUSTER_BUILDS } from '../cluster/app-images.mjs';
import { clusterUp } from '../cluster/bring-up.mjs';
import { importDockerImages } from '../cluster/images.mjs';
import { kubectl } from '../cluster/kubectl.mjs';
import { clusterNodes } from '../cluster/layout.mjs';
import {
  createRestrictedNamespace,
  deployRelease,
  localClusterValues,
  uninstallRelease,
  waitForNodePort,
  writeValuesFile,
} from '../cluster/release.mjs';
import { engineAnswers } from '../docker-engine.mjs';
import { crowdOnto, drainUnderLoad } from './drain-scenario.mjs';

const RELEASE = { release: 'meridian', namespace: 'meridian-drain-demo' };
const NODE_PORT = 30093;
const REPLICAS = 2;

/** @param {(line: string) => void} log */
export async function runDrainDemo(log) {
  if (!engineAnswers())
    throw new Error(
      'rollout:demo --cluster --drain: no Docker engine answers `docker info`; start one first (the app image is built with it)',
    );
  const nodes = clusterNodes(3);
  const crowded = nodes.at(-1)?.name ?? '';
  const { binaries } = await clusterUp(log, { nodes: nodes.length });
  await importDockerImages(binaries, await buildAppImages([CLUSTER_BUILDS.a], log));
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-drain-demo-'));
  try {
    const valuesFile = path.join(dir, 'values.json');
    // Scheduling and traffic alone: no Prometheus Operator objects, so no CRDs needed.
    writeValuesFile(
      valuesFile,
      localClusterValues(NODE_PORT, { replicaCount: REPLICAS, serviceMonitor: { enabled: false }, prometheusRule: { enabled: false } }),
    );
    await createRestrictedNamespace(RELEASE.namespace);
    log(`installing ${CLUSTER_BUILDS.a} with both pods on ${crowded}`);
    await crowdOnto(nodes, crowded, () => deployRelease({ ...RELEASE, valuesFile, tag: CLUSTER_BUILDS.a }));
    await waitForNodePort(RELEASE, NODE_PORT);
    return await drainUnderLoad({ releaseRef: RELEASE, nodePort: NODE_PORT, nodes, node: crowded, replicas: REPLICAS, log });
  } finally {
    await kubectl(['uncordon', crowded]);
    await uninstallRelease(RELEASE);
    await kubectl(['delete', 'namespace', RELEASE.namespace, '--wait=false', '--ignore-not-found']);
    rmSync(dir, { recursive: true, force: true });
  }
}
