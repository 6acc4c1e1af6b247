import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { argoRollouts, installArgoRollouts } from '../../tools/cluster/argo-rollouts.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { helm, kubectl } from '../../tools/cluster/kubectl.mjs';
import {
  createRestrictedNamespace,
  deployArgs,
  localClusterValues,
  releaseObjects,
  uninstallRelease,
  writeValuesFile,
} from '../../tools/cluster/release.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { isReady } from '../../tools/rollout/pod-watch.mjs';
import { webPods } from './support/releases';

// Each build keeps its own settings through a canary (the chart's configmap.yaml: a ConfigMap
// named by a hash of the settings, those of the pods still running kept). Build A runs with
// LOG_LEVEL=warn; the upgrade to build B with LOG_LEVEL=info pauses at its canary step, for a
// person. A stable pod deleted meanwhile comes back with A's settings, and the canary's pod has
// B's; the canary aborted, every pod is A's with A's settings; the next upgrade (back to A)
// leaves A's ConfigMap alone. With one ConfigMap for the release, B's settings reached the
// stable pod's replacement, and stayed after the abort.
const REF = { release: 'meridian', namespace: 'settings-web' };
const NODE_PORT = 30083;
const { a: A, b: B } = CLUSTER_BUILDS;

/** A canary release whose one step waits for a person; its analysis's Prometheus is never asked. */
const canaryValues = (logLevel: string) =>
  localClusterValues(NODE_PORT, {
    app: { buildPollIntervalMs: 1000, logLevel },
    rollout: {
      strategy: 'canary',
      canary: { steps: [{ weight: 50, pause: '1h' }], analysis: { prometheusAddress: 'http://198.18.0.1:9' } },
    },
  });

const log = (line: string) => console.log(`>>> ${line}`);
const inNamespace = (...args: string[]) => kubectl(['--namespace', REF.namespace, ...args]);
let dir: string;
let valuesFile: string;

/** helm upgrade --install with `logLevel` and build `tag`, as docs/operations.md does for a canary release. */
async function deploy(tag: string, logLevel: string) {
  writeValuesFile(valuesFile, canaryValues(logLevel));
  await helm(deployArgs({ ...REF, valuesFile, tag, canary: true }));
}

const rolloutHealthy = () =>
  waitFor('the Rollout to be Healthy', () => argoRollouts(['status', REF.release, '--namespace', REF.namespace, '--timeout', '120s']), {
    timeoutMs: 300_000,
    intervalMs: 2000,
  });

interface RolloutStatus {
  phase?: string;
  stableRS?: string;
  currentPodHash?: string;
}

async function rolloutStatus(): Promise<RolloutStatus> {
  const { stdout } = await inNamespace('get', 'rollout', REF.release, '--output', 'jsonpath={.status}');
  return JSON.parse(stdout || '{}') as RolloutStatus;
}

/** The release's Ready web pods, not terminating, each with the template hash Argo gave it. */
async function readyPodsByHash(): Promise<{ name: string; hash: string }[]> {
  return (await webPods(REF))
    .filter((pod) => isReady(pod) && !pod.metadata.deletionTimestamp)
    .map((pod) => ({ name: pod.metadata.name, hash: pod.metadata.labels?.['rollouts-pod-template-hash'] ?? '' }));
}

/** LOG_LEVEL as the pod's server process has it. */
async function logLevelOf(pod: string): Promise<string> {
  const { stdout } = await inNamespace(
    'exec',
    pod,
    '--container',
    'meridian',
    '--',
    'node',
    '-e',
    'process.stdout.write(process.env.LOG_LEVEL)',
  );
  return stdout;
}

async function settingsMaps(): Promise<string[]> {
  const maps = (await releaseObjects('configmaps', REF)) as { metadata: { name: string } }[];
  return maps.map((map) => map.metadata.name).filter((name) => name.startsWith(`${REF.release}-env-`));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'meridian-settings-'));
  valuesFile = path.join(dir, 'values.json');
  await installArgoRollouts(log);
  await createRestrictedNamespace(REF.namespace);
  await deploy(A, 'warn');
  await rolloutHealthy();
});

afterAll(async () => {
  await uninstallRelease(REF);
  await kubectl(['delete', 'namespace', REF.namespace, '--ignore-not-found', '--timeout=180s']);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('settings per build through a canary', () => {
  test('a stable pod restarted mid-canary, and an abort, keep the stable build’s settings; the next upgrade drops the canary’s', async () => {
    const [stableMap] = await settingsMaps();
    expect(stableMap).toBeDefined();

    await deploy(B, 'info');
    const paused = await waitFor(
      'the canary of B to pause at its step, its pod and a stable one Ready',
      async () => {
        const status = await rolloutStatus();
        const pods = await readyPodsByHash();
        const stable = pods.filter((pod) => pod.hash === status.stableRS);
        const canary = pods.filter((pod) => pod.hash === status.currentPodHash && pod.hash !== status.stableRS);
        if (status.phase !== 'Paused' || !stable.length || !canary.length)
          throw new Error(`${JSON.stringify(status)}, pods ${JSON.stringify(pods)}`);
        return { status, stable, canary };
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
    expect(await settingsMaps()).toHaveLength(2);
    expect(await logLevelOf(paused.canary[0]!.name)).toBe('info');

    const restarted = paused.stable[0]!.name;
    await inNamespace('delete', 'pod', restarted, '--wait=true');
    const replacement = await waitFor(
      'a stable pod to replace the deleted one',
      async () => {
        const pod = (await readyPodsByHash()).find((each) => each.hash === paused.status.stableRS && each.name !== restarted);
        if (!pod) throw new Error('none Ready yet');
        return pod.name;
      },
      { timeoutMs: 180_000, intervalMs: 1000 },
    );
    expect(await logLevelOf(replacement)).toBe('warn');

    await argoRollouts(['abort', REF.release, '--namespace', REF.namespace]);
    const afterAbort = await waitFor(
      'the canary’s pod to go, two stable pods Ready',
      async () => {
        const pods = await readyPodsByHash();
        const all = await webPods(REF);
        if (pods.length !== 2 || all.length !== 2 || pods.some((pod) => pod.hash !== paused.status.stableRS))
          throw new Error(`pods ${JSON.stringify(pods)} of ${all.length}`);
        return pods;
      },
      { timeoutMs: 180_000, intervalMs: 1000 },
    );
    for (const pod of afterAbort) expect(await logLevelOf(pod.name), pod.name).toBe('warn');

    await deploy(A, 'warn');
    await rolloutHealthy();
    expect(await settingsMaps()).toEqual([stableMap]);
  });
});
