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
// takes the count over (it syncs every 15 s).
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

/** Samples the Deployment's replica count and its ready pods, until `stop()`. */
function sampleReplicas() {
  const samples: Sample[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const [{ stdout }, ready] = await Promise.all([
        kubectl(['--namespace', REF.namespace, 'get', 'deployment', REF.release, '--output', 'jsonpath={.spec.replicas}']),
        readyPods(REF),
      ]);
      samples.push({ replicas: stdout === '' ? undefined : Number(stdout), ready: ready.length });
      await sleep(250);
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      return samples;
    },
  };
}

interface ManagedFieldsEntry {
  manager: string;
  fieldsV1?: { 'f:spec'?: Record<string, unknown> };
}

describe('turning autoscaling on in a live release, as the chart README says', () => {
  test('keeps both pods through the upgrade and while the autoscaler takes over', async () => {
    const sampling = sampleReplicas();
    let samples: Sample[] = [];
    try {
      const { stdout: count } = await kubectl([
        '--namespace',
        REF.namespace,
        'get',
        'deployment',
        REF.release,
        '--output',
        'jsonpath={.spec.replicas}',
      ]);
      expect(count).toBe('2');
      const handover = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: REF.release }, spec: { replicas: Number(count) } };
      await kubectl(
        ['--namespace', REF.namespace, 'apply', '--server-side', '--field-manager=handover-to-hpa', '--validate=false', '-f', '-'],
        {
          input: JSON.stringify(handover),
        },
      );

      writeValuesFile(release.valuesFile, localClusterValues(NODE_PORT, { autoscaling: AUTOSCALING }));
      await deployRelease({ ...REF, valuesFile: release.valuesFile, tag: CLUSTER_BUILDS.a });

      await waitFor(
        'the autoscaler to read the Deployment',
        async () => {
          const { stdout } = await kubectl(['--namespace', REF.namespace, 'get', 'hpa', REF.release, '--output', 'json']);
          const status = JSON.parse(stdout).status ?? {};
          if (status.currentReplicas !== 2) throw new Error(`its status: ${JSON.stringify(status)}`);
        },
        { timeoutMs: 60_000, intervalMs: 1000 },
      );
      await sleep(HELD_AFTER_TAKEOVER_MS);
    } finally {
      samples = await sampling.stop();
    }
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.filter((sample) => sample.replicas !== 2 || sample.ready < 2)).toEqual([]);

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
    const owners = (JSON.parse(stdout).metadata.managedFields as ManagedFieldsEntry[])
      .filter((entry) => entry.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined)
      .map((entry) => entry.manager);
    // The handover's manager alone keeps the field: Helm no longer sets it.
    expect(owners).toEqual(['handover-to-hpa']);
  });
});
