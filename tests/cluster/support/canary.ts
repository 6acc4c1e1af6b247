import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, vi, type ExpectStatic } from 'vitest';
import { ARGO_METRICS_MONITOR, argoRollouts, installArgoRollouts } from '../../../tools/cluster/argo-rollouts.mjs';
import { CLUSTER_BUILDS, IMAGE_REPOSITORY } from '../../../tools/cluster/app-images.mjs';
import { canaryFaultImage, makeFaultImages, parseImage } from '../../../tools/gameday/fault-images.mjs';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import {
  createRestrictedNamespace,
  deployRelease,
  localClusterValues,
  uninstallRelease,
  waitForNodePort,
  writeValuesFile,
} from '../../../tools/cluster/release.mjs';
import {
  ANALYSIS_INTERVAL_SECONDS,
  CANARY_SCRAPE_INTERVAL,
  canaryValues,
  nodePrometheus,
  runCanary,
} from '../../../tools/rollout/canary-scenario.mjs';
import { pausedInconclusive } from '../../../tools/rollout/canary-watch.mjs';
import { startReleasePrometheus } from '../../../tools/rollout/cluster-scenario.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { waitFor } from '../../../tools/lib/wait.mjs';
import { expectNoConnectionError, type ReleaseRef } from './releases';

const log = (line: string) => console.log(`>>> ${line}`);

export interface CanaryRelease extends ReleaseRef {
  nodePort: number;
}

type Prometheus = Awaited<ReturnType<typeof startReleasePrometheus>>;

/** Build A of a canary release, installed: the Rollout Healthy and the NodePort answering. */
export async function installCanaryRelease(
  release: CanaryRelease,
  values: Record<string, unknown>,
  dir: string,
  app: Record<string, unknown>,
) {
  const valuesFile = path.join(dir, `${release.namespace}.json`);
  const local = localClusterValues(release.nodePort, values);
  writeValuesFile(valuesFile, { ...local, app: { ...local.app, ...app } });
  await createRestrictedNamespace(release.namespace);
  await deployRelease({ ...release, valuesFile, tag: CLUSTER_BUILDS.a, canary: true });
  // helm --wait does not wait for a Rollout's pods (docs/operations.md): the plugin does. It
  // fails at once while the controller has not yet read the Rollout's Deployment: asked again.
  await waitFor(
    `the Rollout in ${release.namespace} to be Healthy`,
    () => argoRollouts(['status', release.release, '--namespace', release.namespace, '--timeout', '120s']),
    { timeoutMs: 300_000, intervalMs: 2000 },
  );
  // A Deployment created without replicas starts one pod, which Argo scales away only once the
  // Rollout is up: until then a test counting the release's pods would count one too many.
  await waitFor(
    `the Deployment in ${release.namespace} to run no pod`,
    async () => {
      const { stdout } = await kubectl([
        ...['get', 'deployment', '--namespace', release.namespace],
        ...['--selector', `app.kubernetes.io/instance=${release.release},app.kubernetes.io/component=web`],
        ...['--output', 'jsonpath={.items[*].status.replicas}'],
      ]);
      if (stdout.split(' ').some((replicas) => Number(replicas) > 0)) throw new Error(`replicas: ${stdout}`);
    },
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
  await waitForNodePort(release, release.nodePort);
  return valuesFile;
}

/**
 * For this file: Argo Rollouts installed as a user does, a Prometheus on the node's address
 * (the controller queries it) following the releases and the controller's metrics (and sending
 * the releases' alerts to `alertmanagerUrl()`, when it names one), and build A of each release
 * installed with `rollout.strategy: canary` (and the `app` and `analysis` settings given), while
 * `alongside` (the file's bad builds) is made. All removed afterwards.
 */
export function canaryReleasesForThisFile(
  releases: CanaryRelease[],
  alongside: () => Promise<unknown> = async () => {},
  {
    alertmanagerUrl = () => undefined,
    app = {},
    analysis = {},
  }: { alertmanagerUrl?: () => string | undefined; app?: Record<string, unknown>; analysis?: Record<string, unknown> } = {},
) {
  const state: { prometheus?: Prometheus; valuesFiles: Record<string, string>; dir?: string } = { valuesFiles: {} };
  beforeAll(async () => {
    state.dir = mkdtempSync(path.join(tmpdir(), 'meridian-canary-'));
    await installArgoRollouts(log);
    const prometheus = await nodePrometheus();
    const values = canaryValues({ prometheusAddress: prometheus.address, analysis });
    await Promise.all([
      alongside(),
      ...releases.map(async (release) => {
        state.valuesFiles[release.namespace] = await installCanaryRelease(release, values, state.dir as string, app);
      }),
    ]);
    state.prometheus = await startReleasePrometheus(releases, state.dir, {
      listen: prometheus.listen,
      monitors: [ARGO_METRICS_MONITOR],
      scrapeInterval: CANARY_SCRAPE_INTERVAL,
      alertmanagerUrl: alertmanagerUrl(),
    });
  });
  afterAll(async () => {
    await state.prometheus?.stop();
    await Promise.all(
      releases.map(async (release) => {
        await uninstallRelease(release);
        await kubectl(['delete', 'namespace', release.namespace, '--ignore-not-found', '--timeout=180s']);
      }),
    );
    if (state.dir) rmSync(state.dir, { recursive: true, force: true });
  });
  return {
    get prometheus(): Prometheus {
      if (!state.prometheus) throw new Error('the canary releases are not installed');
      return state.prometheus;
    },
    valuesFile: (release: ReleaseRef) => state.valuesFiles[release.namespace] as string,
  };
}

/** `helm upgrade --install … --set-string image.tag=<tag>` of the release, with its values file. */
export const upgradeTo = (release: ReleaseRef, valuesFile: string, tag: string) =>
  deployRelease({ ...release, valuesFile, tag, canary: true });

/** Page answers of the load generator and the visits, by build. */
export function pageViewsByBuild(traffic: Parameters<typeof trafficTotals>[0], visits: { build: string }[]): Record<string, number> {
  const views: Record<string, number> = {};
  for (const [build, count] of Object.entries(trafficTotals(traffic).builds)) views[build] = (views[build] ?? 0) + count;
  for (const { build } of visits) views[build] = (views[build] ?? 0) + 1;
  return views;
}

/**
 * Where a canary stopped, and every measurement of an analysis that did not succeed, in one
 * line: CI keeps only the first line of a failure, and a canary is not run again to see why.
 */
export function canaryOutcome({ settled, analyses }: Pick<Awaited<ReturnType<typeof runCanary>>, 'settled' | 'analyses'>) {
  const { phase, step, message, stableBuild, canaryBuild } = settled;
  const unsuccessful = analyses
    .filter((run) => run.phase !== 'Successful')
    .map((run) => ({
      build: run.build,
      phase: run.phase,
      metrics: Object.fromEntries(
        run.metrics.filter((metric) => metric.phase !== 'Successful').map((metric) => [metric.name, metric.values]),
      ),
    }));
  return `the canary settled ${JSON.stringify({ phase, step, message, stableBuild, canaryBuild })}, analyses not successful: ${JSON.stringify(unsuccessful)}`;
}

/** Fails unless every analysis of `build` in `analyses` ended `phase`. */
export function expectAnalyses(analyses: { build: string; phase: string }[], build: string, phases: string[]) {
  expect(analyses.filter((run) => run.build === build).map((run) => run.phase)).toEqual(phases);
}

const { a: A, b: B } = CLUSTER_BUILDS;
/** The good build the bad ones are layered on: B (their images keep its tag, its build id). */
const GOOD_IMAGE = `${IMAGE_REPOSITORY}:${B}`;

/**
 * A bad build whose pages paint 8 s late: a script at the top of each prerendered page's body
 * holds the parser (and so every paint) that long. Its LCP regresses; nothing else does.
 */
export const PAINTS_LATE = {
  id: 'paints-late',
  layer: [
    [
      'sh',
      '-c',
      "sed -i 's|<body>|<body><script>for(const end=Date.now()+8000;Date.now()<end;);</script>|' .next/server/app/en.html .next/server/app/ja.html .next/server/app/zh-CN.html",
    ],
  ],
};

/** Builds and imports each bad build of B, `meridian-<fault>:cluster-b` (canaryFaultImage). */
export const makeBadBuilds = (faults: { id: string; layer?: string[][] }[]) =>
  makeFaultImages({
    image: GOOD_IMAGE,
    faults,
    local: true,
    log: (line) => console.log(`>>> ${line}`),
    target: (faultId) => canaryFaultImage(GOOD_IMAGE, faultId),
  });

/**
 * Upgrades `release` (on A) to the bad build `fault` under load and tabs until Argo aborts it,
 * then checks what the issue asks of an abort: the analysis failed, `metric` among the failed, the bad build's
 * last answer came within one analysis interval of the abort, at most the canary's share of
 * page views saw it, no connection error, the tabs on A never moved, and MeridianCanaryAborted
 * fired. `expect` is the test's own (tests of bad builds run side by side).
 */
export async function expectBadBuildAborted(options: {
  release: CanaryRelease;
  valuesFile: string;
  prometheus: Prometheus;
  fault: string;
  metric: string;
  expect: ExpectStatic;
}) {
  const { release, fault, metric, expect } = options;
  // The same values with the fault's repository: the canary runs B with its fault.
  const valuesFile = options.valuesFile.replace(/\.json$/, `-${fault}.json`);
  const values = JSON.parse(readFileSync(options.valuesFile, 'utf8'));
  const { analysis } = values.rollout.canary;
  writeValuesFile(valuesFile, {
    ...values,
    image: { ...values.image, repository: parseImage(canaryFaultImage(GOOD_IMAGE, fault)).repository },
    // Three times the measurements of a good build's analysis, which ends at its first failed
    // one: beside another canary, a canary pod's first samples come later; and C2's pages fail
    // only when their lazy chunk is asked of the canary's pod (a stable pod has the same file,
    // by the same name, and serves it), so some windows hold no failure.
    rollout: {
      ...values.rollout,
      canary: { ...values.rollout.canary, analysis: { ...analysis, count: analysis.count * 3, inconclusiveLimit: analysis.count * 3 - 1 } },
    },
  });
  const result = await runCanary({
    releaseRef: release,
    nodePort: release.nodePort,
    tabs: 2,
    change: () => upgradeTo(release, valuesFile, B),
    until: (sample) => sample.aborted && !sample.readyPods[B],
    untilLabel: `the Rollout to abort ${B} with ${fault}`,
    // Paused on an inconclusive analysis, it would wait for a person: the checks below fail at once.
    giveUpWhen: pausedInconclusive,
    log: (line) => console.log(`>>> [${fault}] ${line}`),
  });

  const analyses = result.analyses.filter((run) => run.startedAt >= result.changedAt);
  expect(analyses.map((run) => run.phase)).toEqual(['Failed']);
  expect(analyses[0]?.metrics.filter((each) => each.phase === 'Failed').map((each) => each.name)).toContain(metric);
  const abortedAt = result.samples.find((sample) => sample.aborted)?.at ?? Infinity;
  // Traffic is back on A within one analysis interval of the abort.
  const badSeconds = result.traffic.buckets.filter((bucket) => (bucket.builds[B] ?? 0) + bucket.serverErrors > 0);
  const lastBad = result.startedAt + ((badSeconds.at(-1)?.second ?? 0) + 1) * 1000;
  expect(lastBad - abortedAt).toBeLessThanOrEqual(ANALYSIS_INTERVAL_SECONDS * 1000);
  // At most the canary's share of page views saw the bad build.
  const views = pageViewsByBuild(result.traffic, result.visits);
  const total = Object.values(views).reduce((sum, count) => sum + count, 0);
  const readyTotal = (pods: Record<string, number>) =>
    Math.max(
      1,
      Object.values(pods).reduce((sum, count) => sum + count, 0),
    );
  const canaryShare = Math.max(...result.samples.map((sample) => (sample.readyPods[B] ?? 0) / readyTotal(sample.readyPods)));
  expect((views[B] ?? 0) / total).toBeLessThanOrEqual(canaryShare);
  expectNoConnectionError(result.traffic, result.events);
  // The tabs opened on A were never moved.
  for (const tab of result.tabs) expect([tab.firstBuild, tab.reloads]).toEqual([A, []]);
  // The browsers' own record of their chunk failures (which the promotion's checks read) saw them.
  if (fault === 'chunks') expect(result.visits.flatMap((visit) => visit.chunkFailures).length).toBeGreaterThan(0);
  // The alert for the aborted rollout fires in the Prometheus that scrapes Argo's metrics.
  await vi.waitFor(
    async () => {
      const alerts = await options.prometheus.query(
        `ALERTS{alertname="MeridianCanaryAborted", alertstate="firing", namespace="${release.namespace}"}`,
      );
      if (alerts.length !== 1) throw new Error(`firing: ${alerts.length}`);
    },
    { timeout: 60_000, interval: 1000 },
  );
}
