import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { trafficTotals } from '../../tools/rollout/traffic-totals.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { runSync } from '../../tools/lib/command.mjs';
import { demoFailure } from './support/demo-output';

const REPORT_DIR = path.join(ROOT, 'rollout-report');

describe('npm run rollout:demo -- --cluster', () => {
  test('draws a helm upgrade on the local cluster from A to B, with no failed request', () => {
    rmSync(REPORT_DIR, { recursive: true, force: true });
    const demo = runSync('npm', ['run', '--silent', 'rollout:demo', '--', '--cluster'], { cwd: ROOT, check: false });
    expect(demo.exitCode, demoFailure(demo)).toBe(0);
    expect(demo.stdout).toMatch(/\d+ requests: 0 5xx, 0 connection errors, 0 other statuses/);
    for (const file of ['index.html', 'rollout.png', 'result.json']) expect(existsSync(path.join(REPORT_DIR, file)), file).toBe(true);
    const result = JSON.parse(readFileSync(path.join(REPORT_DIR, 'result.json'), 'utf8'));
    expect(Object.keys(trafficTotals(result.traffic).builds).sort()).toEqual([CLUSTER_BUILDS.a, CLUSTER_BUILDS.b].sort());
    expect(result.browser.navigation.build).toBe(CLUSTER_BUILDS.b);
  });
});
