import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { clusterRunning } from '../../../../tools/cluster/bring-up.mjs';
import { recordedNodes } from '../../../../tools/cluster/node-count.mjs';
import { clusterDown } from '../../../../tools/cluster/teardown.mjs';
import { freePort } from '../../../../tools/lib/ports.mjs';
import { startHaproxy } from '../../../../tools/rollout/haproxy.mjs';
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
}

/** Where each of the namespace's pods with `selector` runs (or waits), with its node's zone. */
export async function podPlacements(namespace: string, selector: string): Promise<PodPlacement[]> {
  const { stdout } = await kubectl(['get', 'pods', '--namespace', namespace, '--selector', selector, '-o', 'json']);
  const pods = (
    JSON.parse(stdout) as {
      items: { metadata: { name: string; deletionTimestamp?: string }; spec: { nodeName?: string }; status: { phase: string } }[];
    }
  ).items;
  return pods
    .filter((pod) => !pod.metadata.deletionTimestamp)
    .map((pod) => ({
      name: pod.metadata.name,
      phase: pod.status.phase,
      node: pod.spec.nodeName,
      zone: NODES.find((node) => node.name === pod.spec.nodeName)?.zone,
    }));
}

/**
 * haproxy on a free loopback port in front of every node's NodePort, checking each
 * node's `/readyz` through it, as a cloud load balancer in front of a NodePort Service.
 */
export async function balancerInFrontOfNodes(nodePort: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-node-balancer-'));
  const balancer = await startHaproxy({
    dir,
    port: await freePort(),
    servers: NODES.map((node) => ({ name: node.name, host: node.address, port: nodePort })),
  });
  for (const node of NODES) await balancer.waitUntilServing(node.name, 30_000);
  return {
    url: balancer.url,
    statuses: balancer.statuses,
    async stop() {
      await balancer.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` with every node but `node` cordoned, so the pods it starts land there; uncordons them after. */
export async function onlyOn<T>(node: string, work: () => Promise<T>): Promise<T> {
  const others = NODES.map((each) => each.name).filter((name) => name !== node);
  await kubectl(['cordon', ...others]);
  try {
    return await work();
  } finally {
    await kubectl(['uncordon', ...others]);
  }
}
