import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { TEST_BUILDS } from '../../tools/lib/builds.mjs';
import { writeRolloutReport } from '../../tools/rollout/report.mjs';
import { ensureRolloutTools, runRollout } from '../../tools/rollout/scenario.mjs';
import { trafficTotals } from '../../tools/rollout/traffic-totals.mjs';

const { a: BUILD_A, b: BUILD_B } = TEST_BUILDS;
/** The chart of the last run, kept for a look when this test fails. */
const REPORT_DIR = path.join(ROOT, 'test-reports', 'rollout');

/** Why the tools cannot be had (apt-get needs root), or null. Under CI=true a missing tool fails the test. */
function missingTools(): string | null {
  try {
    ensureRolloutTools();
    return null;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

test('builds A to B, one process at a time behind haproxy under steady load: no error, every witness sees B', async (context) => {
  const missing = missingTools();
  if (missing) {
    console.warn(
      `\n!!! SKIPPED the rollout test: haproxy, Prometheus or Chromium is missing and could not be installed.\n!!! ${missing}\n`,
    );
    context.skip();
  }
  const result = await runRollout({ from: BUILD_A, to: BUILD_B, log: (line) => console.log(`rollout ${line}`) });
  await writeRolloutReport(result, REPORT_DIR);

  const totals = trafficTotals(result.traffic);
  console.log(
    `rollout: ${totals.requests} requests, ${totals.serverErrors} 5xx, ${totals.connectionErrors} connection errors; report in ${REPORT_DIR}`,
  );
  // The load generator: every request answered 200, by one build or the other.
  expect(totals.serverErrors).toBe(0);
  expect(totals.connectionErrors, JSON.stringify(result.traffic.errorCodes)).toBe(0);
  expect(totals.otherStatuses).toBe(0);
  expect(totals.ok).toBe(totals.requests);
  expect(Object.keys(totals.builds).sort()).toEqual([BUILD_A.id, BUILD_B.id]);
  const [first, last] = [result.traffic.buckets[0], result.traffic.buckets.at(-1)];
  expect(first?.builds).toEqual({ [BUILD_A.id]: first?.ok });
  expect(last?.builds).toEqual({ [BUILD_B.id]: last?.ok });

  // Each old process drained and exited 0, out of haproxy's rotation before its shutdown delay ran out.
  expect(result.exitCodes).toEqual({ app1: 0, app2: 0 });
  for (const slot of ['app1', 'app2']) {
    const sigterm = result.events.find((event) => event.slot === slot && event.kind === 'sigterm');
    const out = result.events.find((event) => event.slot === slot && event.kind === 'rotation' && event.status === 'DOWN');
    expect((out?.at ?? Infinity) - (sigterm?.at ?? 0)).toBeLessThan(result.settings.shutdownDelayMs);
  }

  // Prometheus: both builds during the roll, at the same time too; only B after.
  expect(Object.keys(result.prometheus.seenDuringRoll.seconds).sort()).toEqual([BUILD_A.id, BUILD_B.id]);
  expect(result.prometheus.seenDuringRoll.mixedSeconds).toBeGreaterThan(0);
  expect(result.prometheus.runningAfter).toEqual({ [BUILD_B.id]: 2 });
  expect(result.prometheus.buildUpdates).toBe(1);

  // The open tab: loaded on A, and (runRollout throws when no poll of the tab hears of B) its
  // next navigation after hearing of B landed on B.
  expect(result.browser.firstBuild).toBe(BUILD_A.id);
  expect(result.browser.navigation.build).toBe(BUILD_B.id);
  // The tab's own record of its beacons (what a failed count is explained by): the report was
  // sent once, and a pod took it.
  const updates = result.browser.beacons.filter((beacon) => beacon.events.includes('build_update_detected'));
  expect(updates.map((beacon) => beacon.outcome)).toEqual([expect.stringMatching(/^HTTP 20[24]$/)]);
});
