import { describe, expect, test } from 'vitest';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { crowdOnto, DRAIN_RATE_PER_SECOND, drainUnderLoad } from '../../../tools/rollout/drain-scenario.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { expectNoFailedRequest, installBuildA } from '../support/releases';
import { NODES, threeNodeClusterForThisFile } from './support/three-nodes';

const ref = { release: 'meridian', namespace: 'meridian-drain' };
const NODE_PORT = 30091;
/** Where both pods start, so its drain takes every pod of the release unless the budget says otherwise. */
const CROWDED = NODES[2]?.name ?? '';

describe('kubectl drain under load through a balancer in front of every node', () => {
  threeNodeClusterForThisFile();

  test('drains the node holding the most web pods: the PodDisruptionBudget lets one go at a time, they come up on the other nodes, and no request fails', async () => {
    const release = await crowdOnto(NODES, CROWDED, () =>
      installBuildA(ref, NODE_PORT, { serviceMonitor: { enabled: false }, prometheusRule: { enabled: false } }),
    );
    try {
      const result = await drainUnderLoad({ releaseRef: ref, nodePort: NODE_PORT, nodes: NODES, node: CROWDED, replicas: 2 });
      const [first] = result.samples;
      // The drained node held the most pods: both of them.
      expect(first?.perNode).toEqual(Object.fromEntries(NODES.map((node) => [node.name, node.name === CROWDED ? 2 : 0])));
      // The second eviction was refused while the first pod's replacement was not yet Ready.
      expect(`${result.drain.stdout}\n${result.drain.stderr}`).toMatch(/disruption budget/);
      // Never fewer than one Ready pod on the way, and both on the other nodes at the end.
      expect(
        Math.min(...result.samples.map((sample) => Object.values(sample.perNode).reduce((sum, count) => sum + count, 0))),
      ).toBeGreaterThanOrEqual(1);
      expect(result.samples.at(-1)?.perNode[CROWDED]).toBe(0);
      expect(trafficTotals(result.traffic).requests).toBeGreaterThan(DRAIN_RATE_PER_SECOND * 10);
      expectNoFailedRequest(result.traffic, result.events);
    } finally {
      await kubectl(['uncordon', CROWDED]);
      await release.remove();
    }
  });
});
