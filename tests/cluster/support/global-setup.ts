import { buildAppImages, CLUSTER_BUILDS } from '../../../tools/cluster/app-images.mjs';
import { clusterRunning, clusterUp } from '../../../tools/cluster/bring-up.mjs';
import { installCustomResourceDefinitions } from '../../../tools/cluster/custom-resources.mjs';
import { importDockerImages } from '../../../tools/cluster/images.mjs';
import { clusterDown } from '../../../tools/cluster/teardown.mjs';
import { ensureBuild } from '../../../tools/cluster-binaries.mjs';
import { OBSERVABILITY_TOOLS } from '../../../tools/observability-engines.mjs';
import { ensureDockerEngine } from '../../../tools/docker-engine.mjs';
import { ensureBrowser } from '../../../tools/debian-packages.mjs';
import { keepComponentLogs } from './component-logs';

const log = (line: string) => console.log(`>>> ${line}`);

/**
 * Once for the cluster suite: the two app images, a running cluster (started here,
 * or one already running, which is left running), the images imported into it,
 * the CRDs the chart's optional objects need, and the game day's engines built. A cluster and a Docker engine started
 * here are stopped afterwards.
 */
export default async function setup(): Promise<() => Promise<void>> {
  ensureBrowser();
  const engine = await ensureDockerEngine();
  // One already running is someone's to keep; one this set-up starts (even half-way) is stopped.
  let started = !(await clusterRunning());
  const teardown = async () => {
    if (started) await clusterDown(log);
    await engine.stop();
  };
  try {
    const images = await buildAppImages(Object.values(CLUSTER_BUILDS), log);
    const cluster = await clusterUp(log);
    started = cluster.started;
    // Read by the cluster script tests, which may stop and restart a cluster the suite started.
    if (started) process.env.MERIDIAN_TEST_CLUSTER = 'started';
    await importDockerImages(cluster.binaries, images);
    await installCustomResourceDefinitions();
    // Built here on a fresh machine (minutes each), not inside a test's time limit.
    for (const tool of OBSERVABILITY_TOOLS) ensureBuild(tool, log);
  } catch (error) {
    keepComponentLogs();
    await teardown();
    throw error;
  }
  return teardown;
}
