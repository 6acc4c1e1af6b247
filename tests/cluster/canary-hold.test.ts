import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'vitest';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { currentRevision, rollbackRelease } from '../../tools/cluster/release.mjs';
import { runCanary } from '../../tools/rollout/canary-scenario.mjs';
import { pausedInconclusive } from '../../tools/rollout/canary-watch.mjs';
import { trafficTotals } from '../../tools/rollout/traffic-totals.mjs';
import { canaryOutcome, canaryReleasesForThisFile, expectBadBuildAborted, makeBadBuilds, PAINTS_LATE, upgradeTo } from './support/canary';
import { expectNoFailedRequest } from './support/releases';

// One release: a canary no visitor reaches is held, then helm rollback ends it. Meanwhile, in
// a release of its own, a canary whose pages paint late (C3) is judged by its visitors' LCP
// and aborted: it has B's build id, and in the first release the analysis window still holds
// what the pages of B reported as the rollback took B's pod away.
const release = { release: 'meridian', namespace: 'canary-hold', nodePort: 30094 };
const paintsLateRelease = { release: 'meridian', namespace: 'canary-c3', nodePort: 30096 };
const { a: A, b: B } = CLUSTER_BUILDS;

describe('a canary without traffic, helm rollback during it, and beside them a canary that paints late', () => {
  const releases = canaryReleasesForThisFile([release, paintsLateRelease], () => makeBadBuilds([PAINTS_LATE]));

  // The two suites run side by side, the tests of each in turn.
  describe('a canary held, then rolled back', { concurrent: true }, () => {
    test.sequential(
      'with no traffic the analysis is inconclusive and the canary pauses at its first step, never promoted',
      async ({ expect }) => {
        const result = await runCanary({
          releaseRef: release,
          nodePort: release.nodePort,
          ratePerSecond: 0,
          tabs: 0,
          visitors: 0,
          change: () => upgradeTo(release, releases.valuesFile(release), B),
          until: pausedInconclusive,
          untilLabel: 'the Rollout to pause on an inconclusive analysis',
          log: (line) => console.log(`>>> ${line}`),
        });
        expect(result.analyses.map((run) => [run.build, run.phase])).toEqual([[B, 'Inconclusive']]);
        // Every measurement lacked data: none passed, none failed (Argo may still call a metric that
        // stopped below its own limit Successful: its measurements say what was seen).
        const measurements = (result.analyses[0]?.metrics ?? []).flatMap((metric) => metric.values);
        expect(measurements.length).toBeGreaterThan(0);
        for (const value of measurements) expect(value).toMatch(/^Inconclusive:/);
        expect(result.settled, canaryOutcome(result)).toMatchObject({ phase: 'Paused', stableBuild: A, canaryBuild: B, step: 1 });
        // Still held a while later.
        await sleep(15_000);
        const { stdout } = await kubectl([
          'get',
          'rollout',
          release.release,
          '--namespace',
          release.namespace,
          '--output',
          'jsonpath={.status.currentStepIndex} {.status.phase}',
        ]);
        expect(stdout).toBe('1 Paused');
      },
    );

    test.sequential('helm rollback during the canary returns every pod, answer and tab to A with no failed request', async ({ expect }) => {
      let backOnAAt: number | undefined;
      const result = await runCanary({
        releaseRef: release,
        nodePort: release.nodePort,
        // The tabs are what a rollback moves; visits would only load the machine C3 is judged on.
        visitors: 0,
        change: async () => rollbackRelease({ ...release, revision: (await currentRevision(release)) - 1, canary: true }),
        // Then 10 s more of traffic, to show that only A answers it.
        until: (sample) => {
          const back = sample.phase === 'Healthy' && sample.stableBuild === A && sample.canaryBuild === null && !sample.readyPods[B];
          backOnAAt = back ? (backOnAAt ?? sample.at) : undefined;
          return backOnAAt !== undefined && sample.at - backOnAAt >= 10_000;
        },
        untilLabel: 'the Rollout back on A alone for 10 s',
        log: (line) => console.log(`>>> ${line}`),
      });
      expectNoFailedRequest(result.traffic, result.events);
      expect(result.settled.readyPods).toEqual({ [A]: 2 });
      // No new analysis: the old pod template is the stable one.
      expect(result.analyses.filter((run) => run.startedAt > result.changedAt)).toEqual([]);
      // After the last B pod went, only A answered.
      const lastB = result.samples.filter((sample) => sample.readyPods[B]).at(-1)?.at ?? result.changedAt;
      const after = result.traffic.buckets.filter((bucket) => result.startedAt + bucket.second * 1000 > lastB + 5000);
      expect(after.length).toBeGreaterThan(0);
      for (const bucket of after) expect(Object.keys(bucket.builds)).toEqual([A]);
      expect(Object.keys(trafficTotals(result.traffic).builds).every((build) => build === A || build === B)).toBe(true);
      // A tab that loaded the canary moved back to A once; the others stayed.
      for (const tab of result.tabs) {
        expect([tab.firstBuild, ...tab.reloads].at(-1)).toBe(A);
        expect(tab.reloads.length).toBeLessThanOrEqual(1);
      }
      expect(result.tabs.flatMap((tab) => tab.failedFiles)).toEqual([]);
    });
  });

  describe('a canary that paints late', { concurrent: true }, () => {
    test.sequential(
      'a build whose pages paint 8 s late: the analysis fails on LCP, Argo aborts, visitors are back on A',
      async ({ expect }) =>
        expectBadBuildAborted({
          release: paintsLateRelease,
          valuesFile: releases.valuesFile(paintsLateRelease),
          prometheus: releases.prometheus,
          fault: PAINTS_LATE.id,
          metric: 'client-lcp-p75',
          expect,
        }),
    );
  });
});
