import { describe, expect, test, vi } from 'vitest';
import { evictPod, readyPods, releaseForThisFile } from './support/releases';

const ref = { release: 'meridian', namespace: 'meridian-single' };
const NODE_PORT = 30085;

describe('one replica', () => {
  releaseForThisFile(ref, NODE_PORT, { replicaCount: 1 });

  test('installs, and its PodDisruptionBudget lets a node drain evict the only pod', async () => {
    const [only] = await readyPods(ref);
    if (!only) throw new Error('the release should have one Ready pod');
    await evictPod(ref, only);
    // Until a new Ready pod stands in place of the evicted one.
    await vi.waitFor(
      async () => {
        const ready = await readyPods(ref);
        if (ready.length !== 1 || ready[0] === only) throw new Error(`ready: ${ready.join(', ') || 'none'}`);
      },
      { timeout: 120_000, interval: 500 },
    );
    expect(await readyPods(ref)).not.toContain(only);
  });
});
