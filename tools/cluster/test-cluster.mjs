// The cluster the cluster suites run on: the two app images, a running cluster (started
// here, or one already running, which is left running), the images imported into it, the
// CRDs the chart's optional objects need, and the game day's engines built. Prepared by the
// global set-up of the cluster suites (tests/cluster/support/global-setup.ts): the second
// in a run finds it ready.
import { ensureBuild } from '../cluster-binaries.mjs';
import { ensureBrowser } from '../debian-packages.mjs';
import { ensureDockerEngine } from '../docker-engine.mjs';
import { OBSERVABILITY_TOOLS } from '../observability-engines.mjs';
import { buildAppImages, CLUSTER_BUILDS } from './app-images.mjs';
import { clusterRunning, clusterUp } from './bring-up.mjs';
import { keepComponentLogs } from './component-logs.mjs';
import { installCustomResourceDefinitions } from './custom-resources.mjs';
import { importDockerImages } from './images.mjs';
import { clusterDown } from './teardown.mjs';

/**
 * Prepares the cluster (of `nodes` nodes; one unless told); resolves with whether this
 * call started it and the teardown that stops what it started (the cluster, the Docker
 * engine). On failure the components' logs are kept in test-reports/cluster/ and what was
 * started is stopped.
 * @param {(line: string) => void} log
 * @param {{ nodes?: number }} [options]
 */
export async function prepareTestCluster(log, { nodes } = {}) {
  ensureBrowser();
  const engine = await ensureDockerEngine();
  // One already running is someone's to keep; one started here (even half-way) is stopped.
  let started = !(await clusterRunning());
  const teardown = async () => {
    if (started) await clusterDown(log);
    await engine.stop();
  };
  try {
    const images = await buildAppImages(Object.values(CLUSTER_BUILDS), log);
    const cluster = await clusterUp(log, { nodes });
    started = cluster.started;
    await importDockerImages(cluster.binaries, images);
    await installCustomResourceDefinitions();
    // Built here on a fresh machine (minutes each), not inside a test's time limit.
    for (const tool of OBSERVABILITY_TOOLS) ensureBuild(tool, log);
  } catch (error) {
    keepComponentLogs();
    await teardown();
    throw error;
  }
  return { started, teardown };
}
