// The namespace the game day runs in: made by it (and deleted after it), or one that exists
// and holds nothing but what an earlier game day left. Anything else running there is
// someone's: the game day would share its traffic, its alerts and its clean-up, so it
// refuses, unless told to go ahead (--force), and then touches only its own releases.

const WORKLOADS = 'deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,pods';

/**
 * @param {import('./cluster-access.mjs').ClusterAccess} access
 * @param {string} namespace
 * @returns {Promise<boolean>}
 */
async function namespaceExists(access, namespace) {
  const { stdout } = await access.kubectl(['get', 'namespaces', '--field-selector', `metadata.name=${namespace}`, '--output', 'name']);
  return stdout.trim() !== '';
}

/**
 * The workloads of `namespace` that are not one of `releases`, as `kind/name`.
 * @param {import('./cluster-access.mjs').ClusterAccess} access
 * @param {string} namespace @param {string[]} releases
 */
export async function otherWorkloads(access, namespace, releases) {
  const { stdout } = await access.kubectl(['get', WORKLOADS, '--namespace', namespace, '--output', 'json']);
  /** @type {{ kind: string, metadata: { name: string, labels?: Record<string, string> } }[]} */
  const items = JSON.parse(stdout).items;
  return items
    .filter((item) => !releases.includes(item.metadata.labels?.['app.kubernetes.io/instance'] ?? ''))
    .map((item) => `${item.kind.toLowerCase()}/${item.metadata.name}`);
}

/**
 * Makes sure the game day may run in `namespace`, creating it (restricted Pod Security, as
 * docs/cluster.md's namespace) when missing; resolves with whether it made it.
 * @param {{ access: import('./cluster-access.mjs').ClusterAccess, namespace: string, releases: string[], force: boolean }} options
 */
export async function claimNamespace({ access, namespace, releases, force }) {
  if (await namespaceExists(access, namespace)) {
    const others = await otherWorkloads(access, namespace, releases);
    if (others.length && !force)
      throw new Error(
        `gameday: namespace ${namespace} holds other workloads (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}); the game day would break them and their alerts. Choose another namespace (--namespace), or pass --force to run beside them.`,
      );
    return false;
  }
  const object = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: namespace,
      labels: {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/enforce-version': 'latest',
        'app.kubernetes.io/managed-by': 'meridian-gameday',
      },
    },
  };
  await access.kubectl(['create', '-f', '-'], { input: JSON.stringify(object) });
  return true;
}
