import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { ARGO_IMAGE, ARGO_NAMESPACE } from '../../tools/cluster/argo-rollouts.mjs';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { CHROMIUM_PATH } from '../../tools/debian-packages.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import type { Finished } from '../../tools/lib/command.mjs';
import type { CanaryResult } from '../../tools/rollout/canary-report.mjs';
import { trafficTotals } from '../../tools/rollout/traffic-totals.mjs';
import { machineWithout } from '../support/disposable-root.mjs';
import { expectAnalyses } from './support/canary';
import { expectNoFailedRequest } from './support/releases';
import { demoFailure } from './support/demo-output';

const REPORT_DIR = path.join(ROOT, 'rollout-report');
const { a: A, b: B } = CLUSTER_BUILDS;

// A good build through a canary, as a user watches one: `npm run rollout:demo -- --cluster
// --canary` installs Argo Rollouts and release A, upgrades to B under load and tabs, and writes
// everything its witnesses saw to rollout-report/result.json, which this file reads.
describe('a good build through a canary release with Argo Rollouts (npm run rollout:demo -- --cluster --canary)', () => {
  let demo: Finished;
  let result: CanaryResult;

  test('on a machine without Chromium, the demo installs it, exits 0 with B promoted and no failed request, and leaves its picture in rollout-report/', async () => {
    rmSync(REPORT_DIR, { recursive: true, force: true });
    // As on a fresh machine: its visitors' browser is Debian's package, which the demo installs.
    // The machine is a disposable root (tests/support/disposable-root.mjs): the host keeps its Chromium.
    const machine = await machineWithout(['chromium']);
    try {
      expect((await machine.run('test', ['-e', CHROMIUM_PATH])).exitCode).toBe(1);
      demo = await machine.run('npm', ['run', '--silent', 'rollout:demo', '--', '--cluster', '--canary'], { cwd: ROOT });
      expect(await machine.installed('chromium')).toBe(true);
    } finally {
      await machine.close();
    }
    expect(existsSync(CHROMIUM_PATH)).toBe(true);
    expect(demo.exitCode, demoFailure(demo)).toBe(0);
    expect(demo.stderr).toContain('>>> installing Debian packages: chromium');
    expect(demo.stdout).toMatch(/\d+ requests: 0 5xx, 0 connection errors, 0 other statuses/);
    expect(demo.stdout).toContain(`stable build now ${B}`);
    for (const file of ['index.html', 'canary.svg', 'result.json']) expect(existsSync(path.join(REPORT_DIR, file)), file).toBe(true);
    result = JSON.parse(readFileSync(path.join(REPORT_DIR, 'result.json'), 'utf8'));
    const svg = readFileSync(path.join(REPORT_DIR, 'canary.svg'), 'utf8');
    // Both builds' shares, both verdicts and the tabs' moves are drawn.
    for (const text of [A, B, 'Successful', 'moved from']) expect(svg).toContain(text);
  });

  test("Argo Rollouts' controller runs in the cluster from the pinned build, and kubectl argo rollouts showed B promoted", async () => {
    const { stdout } = await kubectl(['get', 'pods', '--namespace', ARGO_NAMESPACE, '--output', 'json']);
    const pods = JSON.parse(stdout).items as { spec: { containers: { image: string }[] }; status: { phase: string } }[];
    expect(pods.map((pod) => [pod.spec.containers[0]?.image, pod.status.phase])).toEqual([[ARGO_IMAGE, 'Running']]);
    expect(result.rolloutView).toMatch(/Status:\s+✔ Healthy/);
    expect(result.rolloutView).toContain(`meridian:${B}`);
    expect(demo.stdout).toContain(result.rolloutView);
  });

  test('B passed both analyses and every step, both builds served side by side, then only B', () => {
    // Every step: 20 %, its analysis, 50 %, its analysis, then 100 % (the steps' indexes 0–4).
    const stepsOfB = [...new Set(result.samples.filter((sample) => sample.canaryBuild === B).map((sample) => sample.step))];
    expect(stepsOfB).toEqual(expect.arrayContaining([1, 3]));
    expectAnalyses(result.analyses, B, ['Successful', 'Successful']);
    expect(result.samples.some((sample) => (sample.readyPods[A] ?? 0) > 0 && (sample.readyPods[B] ?? 0) > 0)).toBe(true);
    expect(result.settled.readyPods).toEqual({ [B]: 2 });
    expectNoFailedRequest(result.traffic, result.events);
    expect(Object.keys(trafficTotals(result.traffic).builds).sort()).toEqual([A, B]);
  });

  test('every tab stayed on A while B was judged and then moved once, to B; no file failed and no chunk failure was reported while both served', () => {
    expect(result.tabs.length).toBe(3);
    // The last look that still showed A stable: everything before it was before the promotion
    // (the first look showing B may come a slow read after it).
    const promotedAt = result.samples.filter((sample) => sample.stableBuild === A).at(-1)?.at ?? -Infinity;
    for (const tab of result.tabs) {
      expect(tab.firstBuild).toBe(A);
      expect(tab.reloads).toEqual([B]);
      // Until the promotion every poll said A was the build tabs belong on (B at most the canary).
      const before = tab.polls.filter((poll) => poll.at < promotedAt);
      expect(before.length).toBeGreaterThan(0);
      const notA = before.filter((poll) => poll.id !== A);
      expect(notA, `polls before ${promotedAt}: ${JSON.stringify(notA)}`).toEqual([]);
    }
    // While both builds served, no page's file failed. (A page the last A pod served as B was
    // promoted asks for A's manifest once no pod has it: that 404 is reported, as after any
    // rolling update, and its next navigation loads B in full.)
    expect(result.visits.filter((visit) => visit.at < promotedAt).length).toBeGreaterThan(10);
    const failedFiles = [...result.tabs, ...result.visits].flatMap((watched) => watched.failedFiles);
    const failedWhileBothServed = failedFiles.filter((failed) => failed.at < promotedAt);
    expect(failedWhileBothServed, `failed files: ${JSON.stringify(failedFiles)}, promoted at ${promotedAt}`).toEqual([]);
    expect(result.visits.some((visit) => visit.build === B)).toBe(true);
    // No browser reported a chunk failure while both served: each report as its beacon left.
    // (After the promotion a page of the last A pod may, like any rolling update, reload once.)
    const chunkFailures = [...result.tabs, ...result.visits].flatMap((watched) => watched.chunkFailures);
    expect(chunkFailures.filter((failure) => failure.at < promotedAt)).toEqual([]);
  });
});
