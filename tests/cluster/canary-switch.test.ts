import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, test } from 'vitest';
import { argoRollouts, installArgoRollouts } from '../../tools/cluster/argo-rollouts.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { helm, kubectl } from '../../tools/cluster/kubectl.mjs';
import { deployArgs, localClusterValues, writeValuesFile } from '../../tools/cluster/release.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { readyPods, releaseForThisFile } from './support/releases';

// The chart README's "Switching to canary and back", command by command, on a live release of
// two pods, sampled four times a second: two pods Ready throughout the switch to a canary
// Rollout (the replica count handed to another field manager, so the upgrade that drops it
// leaves it), and throughout the switch back (the Deployment scaled up first, while the Rollout
// lets it be, so the Rollout's pods go only once the Deployment's are Ready).
const REF = { release: 'meridian', namespace: 'switch-web' };
const NODE_PORT = 30099;
const PODS = 2;
/** A Rollout never released to here: its analysis's Prometheus is never asked. */
const CANARY = { rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://198.18.0.1:9' } } } };

const log = (line: string) => console.log(`>>> ${line}`);
const release = releaseForThisFile(REF, NODE_PORT);

beforeAll(async () => {
  await installArgoRollouts(log);
});

/** Samples the release's Ready web pods (the Deployment's and the Rollout's) while `steps` run. */
async function readyDuring(steps: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      samples.push((await readyPods(REF)).length);
      await sleep(250);
    }
  })();
  try {
    await steps();
  } finally {
    sampling = false;
    await loop;
  }
  return samples;
}

const inNamespace = (...args: string[]) => kubectl(['--namespace', REF.namespace, ...args]);

const deploymentReplicas = async () =>
  (await inNamespace('get', 'deployment', REF.release, '--output', 'jsonpath={.spec.replicas}')).stdout;

/** `helm upgrade` with these values and the extra flags the README names for this step. */
async function upgrade(values: Record<string, unknown>, flags: string[]) {
  writeValuesFile(release.valuesFile, localClusterValues(NODE_PORT, values));
  const args = deployArgs({ ...REF, valuesFile: release.valuesFile, tag: CLUSTER_BUILDS.a, wait: false });
  await helm([...args, ...flags]);
}

describe('switching a live release to canary and back', () => {
  test('as the chart README says: two pods Ready throughout, both ways', async () => {
    const toCanary = await readyDuring(async () => {
      const count = await deploymentReplicas();
      expect(count).toBe(String(PODS));
      await kubectl(
        ['--namespace', REF.namespace, 'apply', '--server-side', '--field-manager=handover-to-rollout', '--validate=false', '-f', '-'],
        {
          input: JSON.stringify({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: REF.release },
            spec: { replicas: Number(count) },
          }),
        },
      );
      await upgrade(CANARY, ['--wait=legacy', '--server-side=true']);
      await waitFor(
        'the Rollout to be Healthy',
        () => argoRollouts(['status', REF.release, '--namespace', REF.namespace, '--timeout', '120s']),
        {
          timeoutMs: 300_000,
          intervalMs: 2000,
        },
      );
      await waitFor(
        'Argo to scale the Deployment down',
        async () => {
          const replicas = await deploymentReplicas();
          if (replicas !== '0') throw new Error(`replicas: ${replicas}`);
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
    });
    expect(toCanary.length).toBeGreaterThan(10);
    expect(toCanary.filter((ready) => ready < PODS)).toEqual([]);

    const back = await readyDuring(async () => {
      await inNamespace('patch', 'rollout', REF.release, '--type', 'merge', '--patch', '{"spec":{"workloadRef":{"scaleDown":"never"}}}');
      await inNamespace('scale', 'deployment', REF.release, `--replicas=${PODS}`);
      await inNamespace('rollout', 'status', 'deployment', REF.release, '--timeout', '5m');
      await upgrade({}, ['--wait', '--server-side=false']);
      await waitFor(
        'the Rollout and its pods to be gone',
        async () => {
          const { stdout } = await inNamespace(
            'get',
            'rollouts,replicasets',
            '--selector',
            `app.kubernetes.io/instance=${REF.release}`,
            '--output',
            'json',
          );
          const left = (JSON.parse(stdout).items as { kind: string; status?: { replicas?: number } }[]).filter(
            (item) => item.kind === 'Rollout' || (item.status?.replicas ?? 0) > 0,
          );
          if (left.some((item) => item.kind === 'Rollout') || left.length > 1) throw new Error(`left: ${left.length}`);
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
    });
    expect(back.length).toBeGreaterThan(10);
    expect(back.filter((ready) => ready < PODS)).toEqual([]);
    expect(await deploymentReplicas()).toBe(String(PODS));
  });
});
