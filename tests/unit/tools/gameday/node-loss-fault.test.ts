import { describe, expect, test } from 'vitest';
import { clusterNodes } from '../../../../tools/cluster/layout.mjs';
import { nodeLossFault } from '../../../../tools/gameday/faults.mjs';

const log = () => {};

describe('the game day’s node-loss fault', () => {
  test('is skipped, with its reason, on a cluster the game day cannot cut a node of', () => {
    expect(nodeLossFault({ local: false, nodes: clusterNodes(3), log })).toEqual({
      skipped: expect.stringContaining('local cluster only'),
    });
    expect(nodeLossFault({ local: true, nodes: clusterNodes(1), log })).toEqual({ skipped: expect.stringContaining('--nodes 3') });
  });

  test('on three nodes cuts the last, keeps the release’s other pod in the other zone, and fires MeridianTargetDown alone', () => {
    const nodes = clusterNodes(3);
    const found = nodeLossFault({ local: true, nodes, log });
    if (!('fault' in found)) throw new Error(found.skipped);
    const [, kept, lost] = nodes;
    expect(kept?.zone).not.toBe(lost?.zone);
    expect(found.fault).toMatchObject({ node: lost?.name, alert: 'MeridianTargetDown', firing: ['MeridianTargetDown'] });
    expect(found.fault.values).toMatchObject({
      replicaCount: 2,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [lost?.name, kept?.name] }] },
            ],
          },
        },
      },
      topologySpread: { whenUnsatisfiable: 'DoNotSchedule' },
    });
  });

  test('finds the lost node NotReady and the lost pod on it in the runbook’s output, not a Ready node or another release’s pod', () => {
    const found = nodeLossFault({ local: true, nodes: clusterNodes(3), log });
    if (!('fault' in found)) throw new Error(found.skipped);
    const [notReady, podOnIt] = found.fault.evidence;
    expect(notReady?.test('meridian-node     Ready    <none>   7m   v1.99.0\nmeridian-node-2   NotReady   <none>   7m   v1.99.0')).toBe(
      true,
    );
    expect(notReady?.test('meridian-node-2   Ready    <none>   7m   v1.99.0\nmeridian-node-1   NotReady   <none>   7m   v1.99.0')).toBe(
      false,
    );
    expect(podOnIt?.test('node-meridian-5d9c-x2   1/1   Terminating   0   3m   198.18.66.4   meridian-node-2   <none>   <none>')).toBe(
      true,
    );
    expect(podOnIt?.test('down-meridian-5d9c-x2   1/1   Running   0   3m   198.18.66.4   meridian-node-2   <none>   <none>')).toBe(false);
  });

  test('refuses to cut a node where another release’s pod runs: that release’s alerts would fire too (run.mjs keeps the others away)', async () => {
    const found = nodeLossFault({ local: true, nodes: clusterNodes(3), log });
    if (!('fault' in found)) throw new Error(found.skipped);
    const asked: string[][] = [];
    const kubectl = async (args: string[]) => {
      asked.push(args);
      return { stdout: 'node-meridian-5d9c-x2 healthy-meridian-7f2a-q8', stderr: '' };
    };
    const context = { access: { kubectl }, namespace: 'meridian-gameday' } as unknown as Parameters<typeof found.fault.inject>[0];
    await expect(found.fault.inject(context)).rejects.toThrow(/other releases run on meridian-node-2: healthy-meridian-7f2a-q8$/);
    expect(asked[0]).toEqual(expect.arrayContaining(['--field-selector', 'spec.nodeName=meridian-node-2']));
  });
});
