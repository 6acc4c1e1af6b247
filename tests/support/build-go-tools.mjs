// Started by `npm test` at its beginning, in the background and niced: the tools the cluster
// suite builds from their Go modules (most of an hour of CPU on a fresh 2-core machine) build
// while the suites before it run, on the CPU their browsers, servers and waits leave idle.
// A machine that has them returns at once. The cluster suite's set-up builds whatever is
// still missing (this failed, or the suite runs alone).
import { CLUSTER_TOOLS, ensureBuild } from '../../tools/cluster-binaries.mjs';
import { OBSERVABILITY_TOOLS } from '../../tools/observability-engines.mjs';

for (const tool of [...CLUSTER_TOOLS, ...OBSERVABILITY_TOOLS]) {
  const startedAt = Date.now();
  ensureBuild(tool, (line) => console.log(`>>> ${line}`));
  console.log(`>>> ${tool}: ready after ${Math.round((Date.now() - startedAt) / 1000)} s`);
}
