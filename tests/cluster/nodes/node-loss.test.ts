import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ensureBinaries } from '../../../tools/cluster-binaries.mjs';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import type { ClusterNode } from '../../../tools/cluster/layout.mjs';
import { powerOffNode, powerOnNode } from '../../../tools/cluster/node-power.mjs';
import { readyEndpoints } from '../../../tools/cluster/release.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { CLUSTER_TARGETS, startReleasePrometheus } from '../../../tools/rollout/cluster-scenario.mjs';
import { startLoad } from '../../../tools/rollout/load-generator.mjs';
import { balancerInFrontOfNodes } from '../../../tools/rollout/drain-scenario.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { installBuildA, readyPods } from '../support/releases';
import { NODES, podPlacements, threeNodeClusterForThisFile } from './support/three-nodes';

const ref = { release: 'meridian', namespace: 'meridian-node-loss' };
const NODE_PORT = 30092;
const RATE_PER_SECOND = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(`>>> ${line}`);

async function nodeReady(name: string): Promise<string> {
  const { stdout } = await kubectl(['get', 'node', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
  return stdout.trim();
}

describe('a node lost under load', () => {
  threeNodeClusterForThisFile();
  let restore: () => Promise<void> = async () => {};
  afterAll(async () => {
    await restore();
  });

  test("a node's power cut: requests fail only until it leaves the rotation, MeridianTargetDown fires, and its pod is replaced on the other nodes", async () => {
    const release = await installBuildA(ref, NODE_PORT, {
      replicaCount: 3,
      // As the game day does: a minute of a target down is enough to see the rule fire.
      prometheusRule: { enabled: true, alerts: { MeridianTargetDown: { for: '30s' } } },
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'meridian-node-loss-'));
    const prometheus = await startReleasePrometheus([ref], dir);
    const balancer = await balancerInFrontOfNodes(NODES, NODE_PORT);
    let victim: ClusterNode | undefined;
    restore = async () => {
      await balancer.stop();
      await prometheus.stop();
      if (victim) await powerOnNode(ensureBinaries(log), victim, log);
      await release.remove();
      rmSync(dir, { recursive: true, force: true });
    };

    // The spread (ScheduleAnyway, the default) puts a pod on each node as a rule; the
    // first node holds the control plane, so the lost one is the last other node with a pod.
    const before = await podPlacements(ref);
    const lost = [...NODES].reverse().find((node) => node.netns && before.some((pod) => pod.node === node.name));
    if (!lost) throw new Error(`no pod on a node after the first: ${JSON.stringify(before)}`);
    const victimPod = before.find((pod) => pod.node === lost.name);
    const { stdout: victimIp } = await kubectl([
      'get',
      'pod',
      victimPod?.name ?? '',
      '--namespace',
      ref.namespace,
      '-o',
      'jsonpath={.status.podIP}',
    ]);

    const load = startLoad({ baseUrl: balancer.url, ratePerSecond: RATE_PER_SECOND, targets: CLUSTER_TARGETS });
    const startedAt = Date.now();
    const since = () => (Date.now() - startedAt) / 1000;
    const seen: Record<string, number> = {};
    let seenTargets: string[] = [];
    let traffic: Awaited<ReturnType<typeof load.stop>>;
    try {
      await sleep(3000);
      seen.powerCut = since();
      powerOffNode(lost);
      victim = lost;
      const deadline = Date.now() + 300_000;
      while (Date.now() < deadline && !(seen.recovered && seen.alertFiring)) {
        const balancerStatus = (await balancer.statuses()).get(lost.name) ?? '';
        if (seen.balancerOut === undefined && balancerStatus.startsWith('DOWN')) seen.balancerOut = since();
        if (seen.nodeNotReady === undefined && (await nodeReady(lost.name)) !== 'True') seen.nodeNotReady = since();
        if (
          seen.endpointGone === undefined &&
          !(await readyEndpoints(ref, NODE_PORT)).some((endpoint) => endpoint.startsWith(`${victimIp.trim()}:`))
        )
          seen.endpointGone = since();
        if (seen.recovered === undefined) {
          const ready = await readyPods(ref);
          const placed = await podPlacements(ref);
          const onVictim = placed.filter((pod) => pod.node === lost.name && ready.includes(pod.name));
          if (ready.length === 3 && onVictim.length === 0) seen.recovered = since();
        }
        if (seen.alertFiring === undefined) {
          const alerts = await prometheus.query(
            `ALERTS{alertname="MeridianTargetDown", alertstate="firing", namespace="${ref.namespace}"}`,
          );
          if (alerts.length > 0) seen.alertFiring = since();
        }
        await sleep(1000);
      }
      await sleep(5000);
      // Whether Prometheus still scrapes the lost pod (Terminating on its node) once it is replaced.
      const targets = await prometheus.query(`up{namespace="${ref.namespace}"}`);
      seenTargets = targets.map((sample) => `${sample.metric.pod ?? sample.metric.instance} ${sample.value[1]}`).sort();
    } finally {
      traffic = await load.stop();
    }
    const failedBySecond = traffic.buckets.flatMap((bucket, second) => {
      const failed = bucket.serverErrors + bucket.connectionErrors + bucket.otherStatuses;
      return failed > 0 ? [{ second, failed, serverErrors: bucket.serverErrors, connectionErrors: bucket.connectionErrors }] : [];
    });
    const totals = trafficTotals(traffic);
    const account = {
      seen,
      lostPod: victimPod?.name,
      targetsAfterRecovery: seenTargets,
      requests: totals.requests,
      failed: failedBySecond.reduce((sum, each) => sum + each.failed, 0),
      errorCodes: traffic.errorCodes,
      failedBySecond,
      // Each of those once the endpoint left (the load generator keeps the first 100 failures).
      failedLater: traffic.failures.filter((failure) => failure.second > (seen.endpointGone ?? 0)),
    };
    const reports = path.join(ROOT, 'test-reports', 'cluster-nodes');
    mkdirSync(reports, { recursive: true });
    writeFileSync(path.join(reports, 'node-loss.json'), `${JSON.stringify(account, null, 2)}\n`);
    log(`node loss: ${JSON.stringify(account)}`);

    expect(Object.keys(seen).sort()).toEqual(['alertFiring', 'balancerOut', 'endpointGone', 'nodeNotReady', 'powerCut', 'recovered']);
    const after = await podPlacements(ref);
    expect(after.filter((pod) => pod.phase === 'Running' && pod.node !== lost.name)).toHaveLength(3);
    // Every failure falls between the power cut (a request sent in the second before may be
    // on its way when the power goes) and the endpoint's removal, plus the load generator's
    // 10 s timeout of a request already on its way to the dead pod: none once both let go.
    const failedSeconds = failedBySecond.map((each) => each.second);
    expect(Math.min(...failedSeconds), JSON.stringify(account)).toBeGreaterThanOrEqual(Math.floor(seen.powerCut ?? 0) - 1);
    expect(Math.max(...failedSeconds), JSON.stringify(account)).toBeLessThanOrEqual((seen.endpointGone ?? 0) + 11);
  });
});
