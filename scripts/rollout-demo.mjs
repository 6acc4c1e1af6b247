// `npm run rollout:demo`: the rollout the test runs (tools/rollout/scenario.mjs),
// drawn: rollout-report/index.html and rollout-report/rollout.png. Exits 1 when
// the load generator counted any error, so a chart with errors is never mistaken
// for the picture of a calm rollout.
//
// `npm run rollout:demo -- --cluster`: the same picture of a `helm upgrade` on the
// local Kubernetes cluster (tools/rollout/cluster-demo.mjs), which it starts or reuses.
//
// `npm run rollout:demo -- --cluster --canary`: a canary release of B on that cluster, judged
// by Argo Rollouts (tools/rollout/canary-demo.mjs): rollout-report/index.html and canary.svg
// draw the share of answers per build, each analysis and its verdict, and the tabs' moves.
// Exits 1 unless B was promoted with no failed request.
//
// `npm run rollout:demo -- --cluster --drain`: `kubectl drain` under load of the node holding
// both pods of a release on the local cluster of three nodes (tools/rollout/drain-demo.mjs):
// rollout-report/drain.svg draws answers and failures each second and the Ready pods on each
// node. Exits 1 when any request failed.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HELP, parseCommand, usageError } from '../tools/lib/cli.mjs';
import { CLUSTER_BUILDS } from '../tools/cluster/app-images.mjs';
import { ROOT } from '../tools/lib/app-server.mjs';
import { ensureTestBuilds, TEST_BUILDS } from '../tools/lib/builds.mjs';
import { runCanaryDemo } from '../tools/rollout/canary-demo.mjs';
import { writeCanaryReport } from '../tools/rollout/canary-report.mjs';
import { runDrainDemo } from '../tools/rollout/drain-demo.mjs';
import { writeDrainReport } from '../tools/rollout/drain-report.mjs';
import { runClusterDemo } from '../tools/rollout/cluster-demo.mjs';
import { writeRolloutReport } from '../tools/rollout/report.mjs';
import { ensureRolloutTools, runRollout } from '../tools/rollout/scenario.mjs';
import { trafficTotals } from '../tools/rollout/traffic-totals.mjs';

const USAGE = `Usage: npm run rollout:demo [-- --cluster [--canary | --drain]]

  (no flag)   two builds behind haproxy under load, replaced one by one, drawn into rollout-report/
  --cluster   a helm upgrade from A to B on the local Kubernetes, drawn the same way
  --canary    with --cluster: a canary release of B judged by Argo Rollouts, drawn into
              rollout-report/canary.svg; exits 1 unless B was promoted with no failed request
  --drain     with --cluster: kubectl drain of the node holding a release's pods, on a cluster
              of three nodes, drawn into rollout-report/drain.svg; exits 1 if any request failed`;
const { values } = parseCommand('rollout:demo', USAGE, () =>
  parseArgs({ options: { cluster: { type: 'boolean' }, canary: { type: 'boolean' }, drain: { type: 'boolean' }, help: HELP } }),
);

const REPORT_DIR = path.join(ROOT, 'rollout-report');
const log = (/** @type {string} */ line) => console.log(line);

if (values.drain) {
  if (!values.cluster) usageError('rollout:demo', USAGE, '--drain runs on the cluster: add --cluster');
  if (values.canary) usageError('rollout:demo', USAGE, '--drain and --canary are two demos: choose one');
  const result = await runDrainDemo(log);
  const files = writeDrainReport(result, REPORT_DIR);
  const totals = trafficTotals(result.traffic);
  const failedRequests = totals.serverErrors + totals.connectionErrors + totals.otherStatuses;
  console.log(
    `\n${totals.requests} requests: ${totals.serverErrors} 5xx, ${totals.connectionErrors} connection errors, ${totals.otherStatuses} other statuses`,
  );
  console.log(
    `Ready pods per node before ${JSON.stringify(result.samples[0]?.perNode)}, after ${JSON.stringify(result.samples.at(-1)?.perNode)}`,
  );
  console.log(`report: ${path.relative(ROOT, files.html)}, chart: ${path.relative(ROOT, files.svg)}`);
  process.exit(failedRequests === 0 ? 0 : 1);
}
if (values.canary) {
  if (!values.cluster) usageError('rollout:demo', USAGE, '--canary runs on the cluster: add --cluster');
  const result = await runCanaryDemo(log);
  const files = writeCanaryReport(result, REPORT_DIR);
  const totals = trafficTotals(result.traffic);
  const verdicts = result.analyses.map((run) => `${run.name} ${run.phase}`).join(', ');
  console.log(
    `\n${totals.requests} requests: ${totals.serverErrors} 5xx, ${totals.connectionErrors} connection errors, ${totals.otherStatuses} other statuses`,
  );
  console.log(`analyses: ${verdicts}; stable build now ${result.settled.stableBuild}`);
  const { chunks, fetches, locales } = result.browserFailures;
  console.log(`browsers reported: ${chunks} chunk failures, ${fetches} failed fetches, ${locales} failed locale loads`);
  console.log(`\nkubectl argo rollouts get rollout:\n${result.rolloutView}`);
  console.log(`report: ${path.relative(ROOT, files.html)}, chart: ${path.relative(ROOT, files.svg)}`);
  const promoted = !result.settled.aborted && result.settled.stableBuild === CLUSTER_BUILDS.b;
  const failedRequests = totals.serverErrors + totals.connectionErrors + totals.otherStatuses;
  // The last line says why the demo failed: what every analysis that did not pass measured last.
  if (!promoted) {
    const unpassed = result.analyses
      .flatMap((run) =>
        run.metrics.filter((metric) => metric.phase !== 'Successful').map((metric) => `${metric.name} ${metric.values.at(-1)}`),
      )
      .join(', ');
    console.log(`not promoted: ${result.settled.aborted ? 'aborted' : result.settled.phase}; ${unpassed || 'no analysis failed'}`);
  } else if (failedRequests > 0)
    console.log(`promoted, but ${failedRequests} requests failed: ${JSON.stringify(result.traffic.errorCodes)}`);
  process.exit(failedRequests === 0 && promoted ? 0 : 1);
}
ensureRolloutTools();
let result;
if (values.cluster) {
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
