import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { runSync } from '../../../tools/lib/command.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { demoFailure } from '../support/demo-output';
import { NODES, threeNodeClusterForThisFile } from './support/three-nodes';

const REPORT_DIR = path.join(ROOT, 'rollout-report');

describe('npm run rollout:demo -- --cluster --drain', () => {
  threeNodeClusterForThisFile();

  test('draws a drain of the node holding both pods: answers and failures each second, Ready pods per node, no failed request', () => {
    rmSync(REPORT_DIR, { recursive: true, force: true });
    const demo = runSync('npm', ['run', '--silent', 'rollout:demo', '--', '--cluster', '--drain'], { cwd: ROOT, check: false });
    expect(demo.exitCode, demoFailure(demo)).toBe(0);
    expect(demo.stdout).toMatch(/\d+ requests: 0 5xx, 0 connection errors, 0 other statuses/);
    for (const file of ['index.html', 'drain.svg', 'result.json']) expect(existsSync(path.join(REPORT_DIR, file)), file).toBe(true);
    const result = JSON.parse(readFileSync(path.join(REPORT_DIR, 'result.json'), 'utf8'));
    const last = NODES.at(-1)?.name ?? '';
    expect(result.drained).toBe(last);
    expect(result.samples[0].perNode[last]).toBe(2);
    expect(result.samples.at(-1).perNode[last]).toBe(0);
    expect(trafficTotals(result.traffic).requests).toBeGreaterThan(0);
    const svg = readFileSync(path.join(REPORT_DIR, 'drain.svg'), 'utf8');
    // A lane per node, each named.
    for (const node of NODES) expect(svg).toContain(`>${node.name}</text>`);
  });
});
