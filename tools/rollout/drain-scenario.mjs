// A node drained under load on the local cluster of several nodes: haproxy in front of
// every node's NodePort (as a cloud load balancer in front of a NodePort Service), steady
// load through it, the release's Ready pods per node sampled every half second, and
// `kubectl drain` of one node. The node tests and `npm run rollout:demo -- --cluster
// --drain` run the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl } from '../cluster/kubectl.mjs';
import { freePort } from '../lib/ports.mjs';
import { CLUSTER_TARGETS } from './cluster-scenario.mjs';
import { startHaproxy } from './haproxy.mjs';
import { startLoad } from './load-generator.mjs';
import { isReady, releasePods } from './pod-watch.mjs';

/** @typedef {import('../cluster/layout.mjs').ClusterNode} ClusterNode */
/** @typedef {{ release: string, namespace: string }} ReleaseRef */

export const DRAIN_RATE_PER_SECOND = 60;
const SAMPLE_EVERY_MS = 500;

/**
 * haproxy on a free loopback port in front of every node's NodePort, checking each node's
 * `/readyz` through it, as a cloud load balancer in front of a NodePort Service; resolves
 * once every node is in its rotation.
 * @param {ClusterNode[]} nodes @param {number} nodePort
 */
export async function balancerInFrontOfNodes(nodes, nodePort) {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-node-balancer-'));
  const balancer = await startHaproxy({
    dir,
    port: await freePort(),
    servers: nodes.map((node) => ({ name: node.name, host: node.address, port: nodePort })),
  });
  for (const node of nodes) await balancer.waitUntilServing(node.name, 30_000);
  return {
    url: balancer.url,
    statuses: balancer.statuses,
    async stop() {
      await balancer.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `work` with every node but `node` cordoned, so the pods it starts land there;
 * uncordons them after.
 * @template T
 * @param {ClusterNode[]} nodes @param {string} node @param {() => Promise<T>} work
 */
export async function crowdOnto(nodes, node, work) {
  const others = nodes.map((each) => each.name).filter((name) => name !== node);
  await kubectl(['cordon', ...others]);
  try {
    return await work();
  } finally {
    await kubectl(['uncordon', ...others]);
  }
}

/**
 * The release's Ready web pods on each node (every node named, with 0 where none).
 * @param {ReleaseRef} releaseRef @param {ClusterNode[]} nodes
 */
export async function readyPodsPerNode(releaseRef, nodes) {
  const pods = (await releasePods(releaseRef)).filter(
    (pod) => pod.metadata.labels?.['app.kubernetes.io/component'] === 'web' && isReady(pod) && !pod.metadata.deletionTimestamp,
  );
  return Object.fromEntries(nodes.map((node) => [node.name, pods.filter((pod) => pod.spec.nodeName === node.name).length]));
}

/**
 * Drains `node` under load through a balancer in front of every node: samples the Ready
 * pods per node from before the drain until `replicas` are Ready on the other nodes, then
 * three seconds more. The node stays cordoned (the caller uncordons it).
 * @param {{ releaseRef: ReleaseRef, nodePort: number, nodes: ClusterNode[], node: string, replicas: number, log?: (line: string) => void }} options
 */
export async function drainUnderLoad({ releaseRef, nodePort, nodes, node, replicas, log = () => {} }) {
  const balancer = await balancerInFrontOfNodes(nodes, nodePort);
  /** @type {{ at: number, perNode: Record<string, number> }[]} */
  const samples = [];
  /** @type {{ at: number, label: string }[]} */
  const events = [];
  const load = startLoad({ baseUrl: balancer.url, ratePerSecond: DRAIN_RATE_PER_SECOND, targets: CLUSTER_TARGETS });
  const startedAt = Date.now();
  const mark = (/** @type {string} */ label) => {
    events.push({ at: Date.now() - startedAt, label });
    log(`${((Date.now() - startedAt) / 1000).toFixed(1)}s ${label}`);
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push({ at: Date.now() - startedAt, perNode: await readyPodsPerNode(releaseRef, nodes) });
      await sleep(SAMPLE_EVERY_MS);
    }
  })();
  const movedOff = () => {
    const last = samples.at(-1)?.perNode ?? {};
    return (last[node] ?? 0) === 0 && Object.values(last).reduce((sum, count) => sum + count, 0) === replicas;
  };
  let drain = { stdout: '', stderr: '' };
  let traffic;
  try {
    await sleep(2000);
    mark(`kubectl drain ${node}`);
    drain = await kubectl(['drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=300s']);
    mark('drain returned');
    const deadline = Date.now() + 120_000;
    while (!movedOff()) {
      if (Date.now() > deadline)
        throw new Error(`drain: ${replicas} pods not Ready off ${node} 120 s after the drain: ${JSON.stringify(samples.at(-1))}`);
      await sleep(SAMPLE_EVERY_MS);
    }
    mark(`${replicas} pods Ready on the other nodes`);
    await sleep(3000);
  } finally {
    sampling = false;
    await sampler;
    traffic = await load.stop();
    await balancer.stop();
  }
  return {
    traffic,
    samples,
    events,
    drain,
    nodes: nodes.map((each) => each.name),
    drained: node,
    settings: { ratePerSecond: DRAIN_RATE_PER_SECOND, via: 'haproxy in front of every node’s NodePort' },
  };
}
