import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clusterAccess } from '../../tools/gameday/cluster-access.mjs';
import { claimNamespace } from '../../tools/gameday/namespace.mjs';

// `npm run gameday` refuses a namespace that holds someone else's workloads (bad
// input), unless told to run beside them; a missing one it creates, restricted.
const access = clusterAccess();
const occupied = 'meridian-gameday-occupied';
const fresh = 'meridian-gameday-fresh';
const releases = ['locale', 'healthy'];

describe('the namespace the game day runs in', () => {
  beforeAll(async () => {
    await access.kubectl(['create', 'namespace', occupied]);
    // A workload of someone else's: no pod is needed for it to count.
    await access.kubectl(['create', 'deployment', 'their-api', '--image=meridian:cluster-a', '--replicas=0', '--namespace', occupied]);
  });
  afterAll(async () => {
    for (const namespace of [occupied, fresh])
      await access.kubectl(['delete', 'namespace', namespace, '--ignore-not-found', '--timeout=180s']);
  });

  test('holding other workloads: refused, naming them and --force', async () => {
    await expect(claimNamespace({ access, namespace: occupied, releases, force: false })).rejects.toThrow(
      /namespace meridian-gameday-occupied holds other workloads \(deployment\/their-api.*--force/,
    );
  });

  test('with --force: used as it is, neither created nor to be deleted', async () => {
    await expect(claimNamespace({ access, namespace: occupied, releases, force: true })).resolves.toBe(false);
  });

  test('missing: created with the restricted Pod Security level, marked as the game day’s', async () => {
    await expect(claimNamespace({ access, namespace: fresh, releases, force: false })).resolves.toBe(true);
    const { stdout } = await access.kubectl(['get', 'namespace', fresh, '--output', 'jsonpath={.metadata.labels}']);
    expect(JSON.parse(stdout)).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'app.kubernetes.io/managed-by': 'meridian-gameday',
    });
  });
});
