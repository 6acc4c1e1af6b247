import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { deployRelease, localClusterValues, writeValuesFile } from '../../tools/cluster/release.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { readyPods, releaseForThisFile } from './support/releases';

// The chart README's "Turning autoscaling on", command by command, on a live release of two
// pods: the replica count handed to another field manager, then the upgrade that turns the
// autoscaler on. The Deployment keeps its two pods throughout, and after, while the autoscaler
// takes the count over (it syncs every 15 s). Then what the README warns of, seen by the same
// sampling: the same upgrade without the handover drops the Deployment to 1 pod for a while.
const REF = { release: 'meridian', namespace: 'hpa-web' };
const NODE_PORT = 30086;
const AUTOSCALING = { enabled: true, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 70 };
/** Longer than the autoscaler's sync period, so it has looked at the Deployment at least once more. */
const HELD_AFTER_TAKEOVER_MS = 20_000;

const release = releaseForThisFile(REF, NODE_PORT);

interface Sample {
  replicas: number | undefined;
  ready: number;
}

const deploymentField = (jsonpath: string) =>
  kubectl(['--namespace', REF.namespace, 'get', 'deployment', REF.release, '--output', `jsonpath=${jsonpath}`]).then(
    ({ stdout }) => stdout,
  );

/** Samples the Deployment's replica count and its ready pods into `samples`, until `stop()`. */
function sampleReplicas() {
  const samples: Sample[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const [replicas, ready] = await Promise.all([deploymentField('{.spec.replicas}'), readyPods(REF)]);
      samples.push({ replicas: replicas === '' ? undefined : Number(replicas), ready: ready.length });
      await sleep(250);
    }
  })();
  return {
    samples,
    async stop() {
      sampling = false;
      await loop;
    },
  };
}

interface ManagedFieldsEntry {
  manager: string;
  fieldsV1?: { 'f:spec'?: Record<string, unknown> };
}

/** Samples taken while `steps` run. */
async function sampledDuring(steps: () => Promise<void>): Promise<Sample[]> {
  const sampling = sampleReplicas();
  try {
    await steps();
  } finally {
    await sampling.stop();
  }
  return sampling.samples;
}

/** The README's handover: `spec` applied to the Deployment by the handover-to-hpa field manager (without it: its fields let go). */
const applyAsHandover = (spec?: { replicas: number }) =>
  kubectl(['--namespace', REF.namespace, 'apply', '--server-side', '--field-manager=handover-to-hpa', '--validate=false', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: REF.release }, ...(spec ? { spec } : {}) }),
  });

async function upgrade(values: Record<string, unknown>) {
  writeValuesFile(release.valuesFile, localClusterValues(NODE_PORT, values));
  await deployRelease({ ...REF, valuesFile: release.valuesFile, tag: CLUSTER_BUILDS.a });
}

/** The field managers that own the Deployment's spec.replicas. */
async function replicasOwners(): Promise<string[]> {
  const { stdout } = await kubectl([
    '--namespace',
    REF.namespace,
    'get',
    'deployment',
    REF.release,
    '--show-managed-fields',
    '--output',
    'json',
  ]);
  return (JSON.parse(stdout).metadata.managedFields as ManagedFieldsEntry[])
    .filter((entry) => entry.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined)
    .map((entry) => entry.manager);
}

const autoscalerCount = (count: number) =>
  waitFor(
    `the autoscaler to report ${count} pods`,
    async () => {
      const { stdout } = await kubectl(['--namespace', REF.namespace, 'get', 'hpa', REF.release, '--output', 'json']);
      const status = JSON.parse(stdout).status ?? {};
      if (status.currentReplicas !== count) throw new Error(`its status: ${JSON.stringify(status)}`);
    },
    { timeoutMs: 90_000, intervalMs: 1000 },
  );

describe('turning autoscaling on in a live release', () => {
  test('as the chart README says: both pods kept through the upgrade and while the autoscaler takes over', async () => {
    const samples = await sampledDuring(async () => {
      const count = await deploymentField('{.spec.replicas}');
      expect(count).toBe('2');
      await applyAsHandover({ replicas: Number(count) });
      await upgrade({ autoscaling: AUTOSCALING });
      await autoscalerCount(2);
      await sleep(HELD_AFTER_TAKEOVER_MS);
    });

    expect(samples.length).toBeGreaterThan(10);
    expect(samples.filter((sample) => sample.replicas !== 2 || sample.ready < 2)).toEqual([]);
    // The handover's manager alone keeps the field: Helm no longer sets it.
    expect(await replicasOwners()).toEqual(['handover-to-hpa']);
  });

  test('without the handover (what the README warns of): the Deployment drops to 1 pod until the autoscaler scales it up', async () => {
    await upgrade({});
    await applyAsHandover();
    expect(await replicasOwners()).not.toContain('handover-to-hpa');

    const samples = await sampledDuring(async () => {
      await upgrade({ autoscaling: AUTOSCALING });
      await waitFor(
        'the autoscaler to bring the second pod back',
        async () => {
          const ready = await readyPods(REF);
          if ((await deploymentField('{.spec.replicas}')) !== '2' || ready.length < 2) throw new Error(`${ready.length} ready`);
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      );
    });

    expect(samples.filter((sample) => sample.replicas === 1).length).toBeGreaterThan(0);
  });
});
