import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { currentRevision, deployRelease, releaseObjects, rollbackRelease } from '../../tools/cluster/release.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { runClusterRollout } from '../../tools/rollout/cluster-scenario.mjs';
import { writeRolloutReport } from '../../tools/rollout/report.mjs';
import { trafficTotals } from '../../tools/rollout/traffic-totals.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { expectNoFailedRequest, releaseForThisFile } from './support/releases';

const ref = { release: 'meridian', namespace: 'meridian-rollout' };
const NODE_PORT = 30081;
const { a: A, b: B } = CLUSTER_BUILDS;

type Result = Awaited<ReturnType<typeof runClusterRollout>>;

/** The guarantees of a rollout under load, whichever way it goes. */
function expectCleanRollout(result: Result, from: string, to: string) {
  expectNoFailedRequest(result.traffic, result.events);
  const totals = trafficTotals(result.traffic);
  // Every answer names its build (pages by data-dpl-id, the poll by its id): only these two.
  expect(Object.keys(totals.builds).sort()).toEqual([from, to].sort());
  // Once the old pods were gone, every answer came from the new build.
  const oldGone = result.events.find((event) => event.kind === 'old-pods-gone');
  const after = result.traffic.buckets.filter((bucket) => bucket.second * 1000 > (oldGone?.at ?? Infinity));
  expect(after.length).toBeGreaterThan(0);
  for (const bucket of after) expect(Object.keys(bucket.builds)).toEqual([to]);
  // The tab on /ja heard of the new build by its poll, and its next link click loaded it in full.
  expect(result.browser.firstBuild).toBe(from);
  expect(result.browser.navigation.build).toBe(to);
  // The old ReplicaSet is scaled to 0, the new one runs both pods.
  expect(result.replicaSets.filter((set) => set.build === from).map((set) => set.replicas)).toEqual([0]);
  expect(result.replicaSets.filter((set) => set.build === to).map((set) => set.replicas)).toEqual([2]);
  // Prometheus, following the ServiceMonitor, saw meridian_build_info move from one build to the other.
  expect(Object.keys(result.prometheus.seenDuringRoll.seconds).sort()).toEqual([from, to].sort());
  expect(result.prometheus.runningAfter).toEqual({ [to]: 2 });
  expect(result.prometheus.buildUpdates).toBeGreaterThan(0);
}

describe('a Helm upgrade and rollback under load on a live cluster', () => {
  const installed = releaseForThisFile(ref, NODE_PORT);

  test('helm upgrade --install --wait --values <file> --set-string image.tag=B moves every pod, every answer and the open tab to B with no failed request', async () => {
    const result = await runClusterRollout({
      releaseRef: ref,
      nodePort: NODE_PORT,
      from: A,
      to: B,
      change: () => deployRelease({ ...ref, valuesFile: installed.valuesFile, tag: B }),
    });
    await writeRolloutReport(result, path.join(ROOT, 'test-reports', 'cluster-rollout', 'upgrade'));
    expectCleanRollout(result, A, B);
    // The chart's PrometheusRule, as the API server holds it, loaded into that Prometheus.
    const [rule] = await releaseObjects('prometheusrules.monitoring.coreos.com', ref);
    // Prometheus lists the groups by file and name, not in the object's order.
    expect([...result.prometheus.ruleGroups].sort()).toEqual(rule.spec.groups.map((group: { name: string }) => group.name).sort());
  });

  test('helm rollback to A under the same load, with the same guarantees', async () => {
    const result = await runClusterRollout({
      releaseRef: ref,
      nodePort: NODE_PORT,
      from: B,
      to: A,
      change: async () => rollbackRelease({ ...ref, revision: (await currentRevision(ref)) - 1 }),
    });
    await writeRolloutReport(result, path.join(ROOT, 'test-reports', 'cluster-rollout', 'rollback'));
    expectCleanRollout(result, B, A);
  });
});
