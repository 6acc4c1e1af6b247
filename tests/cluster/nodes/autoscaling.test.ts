import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { podsUnderLoadSvg } from '../../../tools/rollout/drain-report.mjs';
import { installArgoRollouts } from '../../../tools/cluster/argo-rollouts.mjs';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { uninstallRelease } from '../../../tools/cluster/release.mjs';
import { waitForMetricsApi, waitForMetricsApiService } from '../../../tools/cluster/metrics-server.mjs';
import { startPrometheusAdapter, stopPrometheusAdapter, waitForPodsMetric } from '../../../tools/cluster/prometheus-adapter.mjs';
import { waitFor } from '../../../tools/lib/wait.mjs';
import { autoscalerView, autoscaleUnderRamp, type AutoscaleSample } from '../../../tools/rollout/autoscale-scenario.mjs';
import { CANARY_SCRAPE_INTERVAL, nodePrometheus } from '../../../tools/rollout/canary-scenario.mjs';
import { startReleasePrometheus } from '../../../tools/rollout/cluster-scenario.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { installCanaryRelease } from '../support/canary';
import { expectNoFailedRequest, installBuildA } from '../support/releases';
import { NODES, threeNodeClusterForThisFile } from './support/three-nodes';

// The chart's HorizontalPodAutoscaler on CPU, fed by metrics-server, on three nodes under a load
// ramp through a balancer in front of every node: out from 2 pods to 4 spread over the nodes,
// and back in to 2 once the ramp stops, with no failed request; the same with a canary
// release's Rollout as its target. Then the metrics engine taken away: the autoscaler sees no
// CPU, says so, and the release stays at 2 under the same ramp. Last, the same ramp on requests
// per second per pod, which prometheus-adapter serves from a Prometheus scraping the release:
// before the adapter runs the autoscaler says it cannot read the metric.
const ref = { release: 'meridian', namespace: 'meridian-autoscaling' };
const NODE_PORT = 30092;
const MIN_PODS = 2;
const MAX_PODS = 4;
const AUTOSCALING = {
  enabled: true,
  minReplicas: MIN_PODS,
  maxReplicas: MAX_PODS,
  // Of the pod's 100m request: pages from memory cost little, so the ramp this machine can send
  // (beside three nodes on two cores) is what the target is set against. A pod at the steady
  // 20 requests a second uses 11-17 % (probes, scrapes and GC included); from 3 pods the
  // autoscaler goes to 2 only below two thirds of the target, which 20 % left unreached (CI,
  // 2026-11-28: 3 pods held at 16-17 %).
  targetCPUUtilizationPercentage: 30,
  behavior: {
    // Out as fast as the autoscaler's 15 s sync allows; in after 30 s of lower use instead of
    // Kubernetes' default five minutes, two pods a period.
    scaleUp: { stabilizationWindowSeconds: 0 },
    scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 2, periodSeconds: 15 }] },
  },
};
const RAMP = { steadyRatePerSecond: 20, stepRatePerSecond: 100, stepMs: 15_000, steps: 4, timeoutMs: 240_000 };
const METRICS_SERVER = ['--namespace', 'kube-system', 'deployment/metrics-server'];
/** The run drawn: answers each second against the Ready pods on each node, with its JSON. */
const REPORTS = path.join(ROOT, 'test-reports', 'cluster-nodes');

const log = (line: string) => console.log(`>>> ${line}`);
const RELEASE_VALUES = { autoscaling: AUTOSCALING, serviceMonitor: { enabled: false }, prometheusRule: { enabled: false } };
/** A Rollout that is never released to here: its analysis's Prometheus is never asked. */
const CANARY_WITHOUT_RELEASES = { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://198.18.0.1:9' } } };

const CPU = {
  name: 'CPU use in percent of the request',
  peak: (sample: AutoscaleSample) => sample.cpuPercent,
  target: AUTOSCALING.targetCPUUtilizationPercentage,
};
/** Ready for CPU: the resource metrics API serves the release's first pods. */
const cpuServed = () => waitForMetricsApi({ namespace: ref.namespace, pods: MIN_PODS });

const readyTotal = (sample: AutoscaleSample) => Object.values(sample.perNode).reduce((sum, count) => sum + count, 0);
const nodesWithPods = (sample: AutoscaleSample) => Object.values(sample.perNode).filter((count) => count > 0).length;
const peakOf = (samples: AutoscaleSample[]) => samples.reduce((best, sample) => (readyTotal(sample) > readyTotal(best) ? sample : best));

/**
 * The ramp on the release installed as `ref`, whose metric the caller has waited for: out to
 * MAX_PODS Ready with `metric` past its target, back in to MIN_PODS, every request answered;
 * drawn into test-reports as `name`.
 */
async function rampOutAndIn(name: string, metric: { name: string; peak: (sample: AutoscaleSample) => number | undefined; target: number }) {
  const result = await autoscaleUnderRamp({
    releaseRef: ref,
    nodePort: NODE_PORT,
    nodes: NODES,
    ...RAMP,
    scaledOut: (sample) => readyTotal(sample) >= MAX_PODS,
    scaledIn: (sample) => sample.current === MIN_PODS && readyTotal(sample) === MIN_PODS,
    log,
  });
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(path.join(REPORTS, `${name}.svg`), podsUnderLoadSvg(result));
  writeFileSync(path.join(REPORTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  expect(readyTotal(peakOf(result.samples))).toBe(MAX_PODS);
  expect(Math.max(...result.samples.map((sample) => metric.peak(sample) ?? 0)), `the peak of ${metric.name}`).toBeGreaterThan(
    metric.target,
  );
  expect(result.samples.at(-1)?.current).toBe(MIN_PODS);
  expect(trafficTotals(result.traffic).requests).toBeGreaterThan(RAMP.steadyRatePerSecond * 30);
  expectNoFailedRequest(result.traffic, result.events);
  return result;
}

threeNodeClusterForThisFile();

describe('the HorizontalPodAutoscaler on CPU, under a load ramp through a balancer in front of every node', () => {
  test('scales out from 2 to 4 pods over the nodes as load rises, and back in to 2 after, with no failed request', async () => {
    const release = await installBuildA(ref, NODE_PORT, RELEASE_VALUES);
    try {
      await cpuServed();
      const result = await rampOutAndIn('autoscaling', CPU);
      expect(nodesWithPods(peakOf(result.samples))).toBeGreaterThanOrEqual(2);
    } finally {
      await release.remove();
    }
  });

  test('under rollout.strategy=canary, scales the Rollout the same way', async () => {
    await installArgoRollouts(log);
    const dir = mkdtempSync(path.join(tmpdir(), 'meridian-autoscaling-canary-'));
    try {
      await installCanaryRelease({ ...ref, nodePort: NODE_PORT }, { ...RELEASE_VALUES, rollout: CANARY_WITHOUT_RELEASES }, dir, {});
      const { stdout } = await kubectl([
        'get',
        'hpa',
        ref.release,
        '--namespace',
        ref.namespace,
        '-o',
        'jsonpath={.spec.scaleTargetRef.kind}',
      ]);
      expect(stdout).toBe('Rollout');
      await cpuServed();
      await rampOutAndIn('autoscaling-canary', CPU);
    } finally {
      await uninstallRelease(ref);
      await kubectl(['delete', 'namespace', ref.namespace, '--ignore-not-found', '--timeout=180s']);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without the metrics engine the autoscaler sees no CPU, says so, and keeps 2 pods under the same ramp', async () => {
    await kubectl(['scale', ...METRICS_SERVER, '--replicas=0']);
    // Back before the namespace goes: without the metrics API, its deletion never ends.
    const metricsServerBack = async () => {
      await kubectl(['scale', ...METRICS_SERVER, '--replicas=1']);
      await waitForMetricsApiService();
    };
    let release: Awaited<ReturnType<typeof installBuildA>> | undefined;
    try {
      await kubectl(['wait', '--for=delete', 'pod', '--namespace', 'kube-system', '--selector', 'k8s-app=metrics-server', '--timeout=60s']);
      release = await installBuildA(ref, NODE_PORT, RELEASE_VALUES);
      // Twice the autoscaler's 15 s sync after the ramp's last step.
      const fullRampHeldMs = RAMP.stepMs * RAMP.steps + 30_000;
      const result = await autoscaleUnderRamp({
        releaseRef: ref,
        nodePort: NODE_PORT,
        nodes: NODES,
        ...RAMP,
        scaledOut: (sample) => sample.at > fullRampHeldMs,
        scaledIn: () => true,
      });
      expect(Math.max(...result.samples.map((sample) => sample.current))).toBe(MIN_PODS);
      expect(result.samples.every((sample) => sample.cpuPercent === undefined)).toBe(true);
      expect(result.samples.at(-1)?.conditions).toContainEqual(
        expect.objectContaining({ type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric' }),
      );
      expectNoFailedRequest(result.traffic, result.events);
    } finally {
      await metricsServerBack();
      await release?.remove();
    }
  });
});

describe('the HorizontalPodAutoscaler on requests per second per pod, from Prometheus through prometheus-adapter', () => {
  const PER_POD = 40;
  const METRIC = 'meridian_http_requests_per_second';

  test('without the adapter it cannot read the metric and says so; with it, the ramp scales 2 to 4 pods and back, with no failed request', async () => {
    const node = await nodePrometheus();
    const dir = mkdtempSync(path.join(tmpdir(), 'meridian-autoscaling-requests-'));
    let prometheus: Awaited<ReturnType<typeof startReleasePrometheus>> | undefined;
    const release = await installBuildA(ref, NODE_PORT, {
      ...RELEASE_VALUES,
      serviceMonitor: { enabled: true },
      autoscaling: { ...AUTOSCALING, targetCPUUtilizationPercentage: null, requestsPerSecond: { targetPerPod: String(PER_POD) } },
    });
    try {
      prometheus = await startReleasePrometheus([ref], dir, { listen: node.listen, scrapeInterval: CANARY_SCRAPE_INTERVAL });
      await waitFor(
        'the autoscaler to say it cannot read the pods metric',
        async () => {
          const { conditions } = await autoscalerView(ref);
          expect(conditions).toContainEqual(
            expect.objectContaining({ type: 'ScalingActive', status: 'False', reason: 'FailedGetPodsMetric' }),
          );
        },
        { timeoutMs: 90_000, intervalMs: 2_000 },
      );
      await startPrometheusAdapter({ prometheusUrl: node.address });
      log(`${METRIC} per pod: ${JSON.stringify(await waitForPodsMetric({ namespace: ref.namespace, metric: METRIC, pods: MIN_PODS }))}`);
      const result = await rampOutAndIn('autoscaling-requests', {
        name: `${METRIC} per pod`,
        peak: (sample) => sample.perPodAverage,
        target: PER_POD,
      });
      expect(result.samples.every((sample) => sample.cpuPercent === undefined)).toBe(true);
    } finally {
      await stopPrometheusAdapter();
      await prometheus?.stop();
      await release.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
