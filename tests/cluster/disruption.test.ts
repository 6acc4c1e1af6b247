import { describe, expect, test, vi } from 'vitest';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { CLUSTER_TARGETS } from '../../tools/rollout/cluster-scenario.mjs';
import { startLoad } from '../../tools/rollout/load-generator.mjs';
import { evictPod, expectNoFailedRequest, readyPods, releaseForThisFile, webPods } from './support/releases';

const ref = { release: 'meridian', namespace: 'meridian-disruption' };
const NODE_PORT = 30082;
const RATE_PER_SECOND = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the Deployment is back to two Ready pods and every old one is gone. */
async function waitForTwoFreshPods(replaced: string[]) {
  // Until two Ready pods are back, none of them a replaced one.
  await vi.waitFor(
    async () => {
      const pods = await webPods(ref);
      const ready = await readyPods(ref);
      if (ready.length !== 2 || pods.some((pod) => replaced.includes(pod.metadata.name)))
        throw new Error(`pods: ${pods.map((pod) => pod.metadata.name).join(', ')}; ready: ${ready.join(', ')}`);
    },
    { timeout: 120_000, interval: 500 },
  );
}

/** Runs `disrupt` under steady load and returns the traffic counts. */
async function underLoad(disrupt: () => Promise<void>) {
  const load = startLoad({ baseUrl: `http://127.0.0.1:${NODE_PORT}`, ratePerSecond: RATE_PER_SECOND, targets: CLUSTER_TARGETS });
  try {
    await sleep(2000);
    await disrupt();
    await sleep(3000);
  } catch (error) {
    await load.stop();
    throw error;
  }
  return load.stop();
}

describe('disruptions under load on a live cluster', () => {
  releaseForThisFile(ref, NODE_PORT);

  test('kubectl delete pod fails no request: readiness goes down before the process stops', async () => {
    const [victim] = await readyPods(ref);
    if (!victim) throw new Error('no Ready pod to delete');
    const traffic = await underLoad(async () => {
      await kubectl(['delete', 'pod', victim, '--namespace', ref.namespace, '--wait=false']);
      await waitForTwoFreshPods([victim]);
    });
    expectNoFailedRequest(traffic);
  });

  test('an eviction that would break the PodDisruptionBudget is refused by the API server', async () => {
    const [first, second] = await readyPods(ref);
    if (!first || !second) throw new Error('the release should have two Ready pods');
    let refusal: unknown;
    const traffic = await underLoad(async () => {
      await evictPod(ref, first);
      // The first pod is terminating: the budget (one of two must stay available) allows no second disruption.
      refusal = await evictPod(ref, second).then(
        () => null,
        (error: unknown) => error,
      );
      await waitForTwoFreshPods([first]);
    });
    expect(String(refusal)).toMatch(/disruption budget/);
    expect(await webPods(ref).then((pods) => pods.map((pod) => pod.metadata.name))).toContain(second);
    expectNoFailedRequest(traffic);
  });
});
