import { prepareTestCluster } from '../../../tools/cluster/test-cluster.mjs';

const log = (line: string) => console.log(`>>> ${line}`);

/**
 * Once for a cluster suite (tests/cluster, the canary files, tests/cluster-script): the
 * cluster prepared (tools/cluster/test-cluster.mjs); a cluster and a Docker engine started
 * here are stopped afterwards.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const { started, teardown } = await prepareTestCluster(log);
  // Read by the cluster script tests, which may stop and restart a cluster the suite started.
  if (started) process.env.MERIDIAN_TEST_CLUSTER = 'started';
  return teardown;
}
