import { describe, test } from 'vitest';
import { FAULTS } from '../../tools/gameday/faults.mjs';
import { canaryReleasesForThisFile, expectBadBuildAborted, makeBadBuilds } from './support/canary';

// Each bad build is B with one of the game day's faults layered on (its own repository, B's
// tag: B's build id), in a release of its own; they run side by side. Each fails on its own
// signal: the server's 5xx ratio, the failures its pages report.
const releases = [
  { fault: 'render', metric: 'server-error-ratio', release: 'meridian', namespace: 'canary-c1', nodePort: 30092 },
  { fault: 'chunks', metric: 'client-failures-per-page-view', release: 'meridian', namespace: 'canary-c2', nodePort: 30093 },
] as const;

describe('bad builds aborted by the analysis of their canary, side by side', () => {
  const installed = canaryReleasesForThisFile([...releases], () =>
    makeBadBuilds(FAULTS.filter((fault) => releases.some((release) => release.fault === fault.id))),
  );

  test.concurrent.for(releases)('$fault: the analysis fails on $metric, Argo aborts, visitors are back on A', async (release, { expect }) =>
    expectBadBuildAborted({
      release,
      valuesFile: installed.valuesFile(release),
      prometheus: installed.prometheus,
      fault: release.fault,
      metric: release.metric,
      expect,
    }),
  );
});
