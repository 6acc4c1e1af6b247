import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { waitFor } from '../../../tools/lib/wait.mjs';
import { installBuildA } from '../support/releases';
import { NODES, podPlacements, threeNodeClusterForThisFile, type PodPlacement } from './support/three-nodes';

const ref = { release: 'meridian', namespace: 'meridian-spread' };
const NODE_PORT = 30090;
/** zone-b has one node: cordoned, it stands for a zone that is down while pods are placed. */
const ZONE_B_NODE = NODES.find((node) => node.zone === 'zone-b')?.name ?? '';
const REPORTS = path.join(ROOT, 'test-reports', 'cluster-nodes');

let release: Awaited<ReturnType<typeof installBuildA>> | undefined;

/** Installs three replicas with `topologySpread.whenUnsatisfiable`; waits for them to be Ready unless `wait` is false. */
async function installThree(whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway', { wait = true } = {}) {
  // Scheduling alone is under test: no Prometheus Operator objects.
  const values = {
    replicaCount: 3,
    topologySpread: { whenUnsatisfiable },
    serviceMonitor: { enabled: false },
    prometheusRule: { enabled: false },
  };
  release = await installBuildA(ref, NODE_PORT, values, { wait });
}

/** Every pod Running, with `count` pods; resolves with their placement. */
async function allRunning(count: number): Promise<PodPlacement[]> {
  let placed: PodPlacement[] = [];
  await waitFor(
    `${count} web pods Running`,
    async () => {
      placed = await podPlacements(ref);
      expect(placed.map((pod) => pod.phase)).toEqual(Array.from({ length: count }, () => 'Running'));
    },
    { timeoutMs: 180_000, intervalMs: 1000 },
  );
  return placed;
}

const zones = (placed: PodPlacement[]) => [...new Set(placed.map((pod) => pod.zone))].sort();
const nodes = (placed: PodPlacement[]) => new Set(placed.map((pod) => pod.node)).size;

/** What each case placed where, for docs/cluster.md's account of it. */
function keep(name: string, placed: unknown) {
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(path.join(REPORTS, `spread-${name}.json`), `${JSON.stringify(placed, null, 2)}\n`);
}

describe('three replicas over two zones and three nodes', () => {
  threeNodeClusterForThisFile();

  afterEach(async () => {
    await kubectl(['uncordon', ZONE_B_NODE]);
    await release?.remove();
    release = undefined;
  });

  test('with topologySpread.whenUnsatisfiable DoNotSchedule the pods sit in both zones and on every node', async () => {
    await installThree('DoNotSchedule');
    const placed = await allRunning(3);
    keep('do-not-schedule', placed);
    expect(zones(placed)).toEqual(['zone-a', 'zone-b']);
    expect(nodes(placed)).toBe(3);
  });

  test('while zone-b is down, DoNotSchedule runs only the pod zone-a may take and holds the others Pending; they start in zone-b once it is back', async () => {
    await kubectl(['cordon', ZONE_B_NODE]);
    await installThree('DoNotSchedule', { wait: false });
    await waitFor(
      'two pods the scheduler refuses to place',
      async () => expect((await podPlacements(ref)).filter((pod) => pod.unschedulable)).toHaveLength(2),
      {
        timeoutMs: 120_000,
        intervalMs: 1000,
      },
    );
    const during = await podPlacements(ref);
    expect(during.filter((pod) => pod.node).map((pod) => pod.zone)).toEqual(['zone-a']);
    await kubectl(['uncordon', ZONE_B_NODE]);
    const after = await allRunning(3);
    keep('do-not-schedule-zone-down', { during, after });
    expect(zones(after)).toEqual(['zone-a', 'zone-b']);
    expect(nodes(after)).toBeGreaterThanOrEqual(2);
  });

  test('while zone-b is down, the default ScheduleAnyway runs all three in zone-a, where they stay once it is back', async () => {
    await kubectl(['cordon', ZONE_B_NODE]);
    await installThree('ScheduleAnyway');
    const during = await allRunning(3);
    await kubectl(['uncordon', ZONE_B_NODE]);
    const after = await podPlacements(ref);
    keep('schedule-anyway-zone-down', { during, after });
    expect(zones(during)).toEqual(['zone-a']);
    // Nothing moves a running pod: the spread comes back only with the next rollout.
    expect(after).toEqual(during);
  });
});
