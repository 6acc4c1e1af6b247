// `npm run rollout:demo`: the rollout the test runs (tools/rollout/scenario.mjs),
// drawn: rollout-report/index.html and rollout-report/rollout.png. Exits 1 when
// the load generator counted any error, so a chart with errors is never mistaken
// for the picture of a calm rollout.
//
// `npm run rollout:demo -- --cluster`: the same picture of a `helm upgrade` on the
// local Kubernetes cluster (tools/rollout/cluster-demo.mjs), which it starts or reuses.
import path from 'node:path';
import { ROOT } from '../tools/lib/app-server.mjs';
import { ensureTestBuilds, TEST_BUILDS } from '../tools/lib/builds.mjs';
import { runClusterDemo } from '../tools/rollout/cluster-demo.mjs';
import { writeRolloutReport } from '../tools/rollout/report.mjs';
import { ensureRolloutTools, runRollout } from '../tools/rollout/scenario.mjs';
import { trafficTotals } from '../tools/rollout/traffic-totals.mjs';

const REPORT_DIR = path.join(ROOT, 'rollout-report');
const log = (/** @type {string} */ line) => console.log(line);

ensureRolloutTools();
let result;
if (process.argv.includes('--cluster')) {
  result = await runClusterDemo(log);
} else {
  ensureTestBuilds();
  result = await runRollout({ from: TEST_BUILDS.a, to: TEST_BUILDS.b, log });
}
const { html, png } = await writeRolloutReport(result, REPORT_DIR);
const totals = trafficTotals(result.traffic);
const errors = totals.serverErrors + totals.connectionErrors + totals.otherStatuses;
console.log(
  `\n${totals.requests} requests: ${totals.serverErrors} 5xx, ${totals.connectionErrors} connection errors, ${totals.otherStatuses} other statuses`,
);
console.log(`report: ${path.relative(ROOT, html)}, chart: ${path.relative(ROOT, png)}`);
process.exit(errors === 0 ? 0 : 1);
