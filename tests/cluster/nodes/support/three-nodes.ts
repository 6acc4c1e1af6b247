import { beforeAll } from 'vitest';
import { clusterRunning } from '../../../../tools/cluster/bring-up.mjs';
import { recordedNodes } from '../../../../tools/cluster/node-count.mjs';
import { clusterDown } from '../../../../tools/cluster/teardown.mjs';
import { prepareTestCluster } from '../../../../tools/cluster/test-cluster.mjs';
import { kubectl } from '../../../../tools/cluster/kubectl.mjs';
import { clusterNodes } from '../../../../tools/cluster/layout.mjs';

const log = (line: string) => console.log(`>>> ${line}`);

/** The nodes of the node tests' cluster: two zones, zone-b's one node the second. */
export const NODES = clusterNodes(3);

/**
 * A cluster of three nodes for this file's tests, prepared as the cluster suites' one
 * (images, CRDs); the files of this project share it, and the suite's global teardown
 * stops it. A one-node cluster the suite started makes way for it (the cluster script
 * tests have usually stopped it already); one someone else runs is refused.
 */
export function threeNodeClusterForThisFile(): void {
  beforeAll(async () => {
    const size = recordedNodes().length;
    if (size !== NODES.length && (await clusterRunning())) {
      if (process.env.MERIDIAN_TEST_CLUSTER !== 'started')
        throw new Error(`node tests: a cluster of ${size} node(s) not started by the tests runs; stop it with \`npm run cluster:down\``);
      await clusterDown(log);
    }
    await prepareTestCluster(log, { nodes: NODES.length });
  });
}

export interface PodPlacement {
  name: string;
  phase: string;
  node: string | undefined;
  zone: string | undefined;
  /** The scheduler found no node for it (PodScheduled False, Unschedulable). */
  unschedulable: boolean;
}

/** Where each web pod of the release runs (or waits), with its node's zone; terminating ones left out. */
export async function podPlacements({ release, namespace }: { release: string; namespace: string }): Promise<PodPlacement[]> {
  const selector = `app.kubernetes.io/instance=${release},app.kubernetes.io/component=web`;
  const { stdout } = await kubectl(['get', 'pods', '--namespace', namespace, '--selector', selector, '-o', 'json']);
  const pods = (
    JSON.parse(stdout) as {
      items: {
        metadata: { name: string; deletionTimestamp?: string };
        spec: { nodeName?: string };
        status: { phase: string; conditions?: { type: string; reason?: string }[] };
      }[];
    }
  ).items;
  return pods
    .filter((pod) => !pod.metadata.deletionTimestamp)
    .map((pod) => ({
      name: pod.metadata.name,
      phase: pod.status.phase,
      node: pod.spec.nodeName,
      zone: NODES.find((node) => node.name === pod.spec.nodeName)?.zone,
      unschedulable: (pod.status.conditions ?? []).some(
        (condition) => condition.type === 'PodScheduled' && condition.reason === 'Unschedulable',
      ),
    }));
}
