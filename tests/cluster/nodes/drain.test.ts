import { describe, expect, test, vi } from 'vitest';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { CLUSTER_TARGETS } from '../../../tools/rollout/cluster-scenario.mjs';
import { startLoad } from '../../../tools/rollout/load-generator.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { expectNoFailedRequest, installBuildA, readyPods } from '../support/releases';
import { balancerInFrontOfNodes, NODES, onlyOn, podPlacements, threeNodeClusterForThisFile } from './support/three-nodes';

const ref = { release: 'meridian', namespace: 'meridian-drain' };
const WEB_PODS = 'app.kubernetes.io/instance=meridian,app.kubernetes.io/component=web';
const NODE_PORT = 30091;
const RATE_PER_SECOND = 60;
/** Where both pods start, so its drain takes every pod of the release unless the budget says otherwise. */
const CROWDED = NODES[2]?.name ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kubectl drain under load through a balancer in front of every node', () => {
  threeNodeClusterForThisFile();

  test('drains the node holding the most web pods: the PodDisruptionBudget lets one go at a time, they come up on the other nodes, and no request fails', async () => {
    const release = await onlyOn(CROWDED, () =>
      installBuildA(ref, NODE_PORT, { serviceMonitor: { enabled: false }, prometheusRule: { enabled: false } }),
    );
    const balancer = await balancerInFrontOfNodes(NODE_PORT);
    try {
      const before = await podPlacements(ref.namespace, WEB_PODS);
      const perNode = new Map<string, number>();
      for (const pod of before) perNode.set(pod.node ?? '', (perNode.get(pod.node ?? '') ?? 0) + 1);
      const [busiest, count] = [...perNode].sort(([, a], [, b]) => b - a)[0] ?? [];
      expect({ busiest, count }).toEqual({ busiest: CROWDED, count: 2 });

      const load = startLoad({ baseUrl: balancer.url, ratePerSecond: RATE_PER_SECOND, targets: CLUSTER_TARGETS });
      const startedAt = Date.now();
      const events: { at: number; label: string }[] = [];
      let drained = { stdout: '', stderr: '' };
      let traffic: Awaited<ReturnType<typeof load.stop>>;
      try {
        await sleep(2000);
        events.push({ at: Date.now() - startedAt, label: `kubectl drain ${CROWDED}` });
        drained = await kubectl(['drain', CROWDED, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=300s']);
        events.push({ at: Date.now() - startedAt, label: 'drain returned' });
        await vi.waitFor(
          async () => {
            const ready = await readyPods(ref);
            if (ready.length !== 2) throw new Error(`ready: ${ready.join(', ') || 'none'}`);
          },
          { timeout: 120_000, interval: 500 },
        );
        events.push({ at: Date.now() - startedAt, label: 'two pods Ready again' });
        await sleep(3000);
      } finally {
        traffic = await load.stop();
      }
      // The second eviction was refused while the first pod's replacement was not yet Ready.
      expect(`${drained.stdout}\n${drained.stderr}`).toMatch(/disruption budget/);
      const after = await podPlacements(ref.namespace, WEB_PODS);
      expect(after.map((pod) => pod.node).filter((node) => node === CROWDED)).toEqual([]);
      expect(after.map((pod) => pod.phase)).toEqual(['Running', 'Running']);
      expect(trafficTotals(traffic).requests).toBeGreaterThan(RATE_PER_SECOND * 10);
      expectNoFailedRequest(traffic, events);
    } finally {
      await balancer.stop();
      await kubectl(['uncordon', CROWDED]);
      await release.remove();
    }
  });
});
