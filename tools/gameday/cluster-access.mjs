// kubectl and helm against the cluster the game day runs on: the one KUBECONFIG names, the
// local one (npm run cluster:up) by default. Runbook steps are shell commands, so they get
// the same KUBECONFIG with the pinned kubectl and helm first on PATH.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PATHS } from '../cluster/layout.mjs';
import { run } from '../lib/command.mjs';
import { helmBinary, kubectlBinary } from '../kubernetes-clients.mjs';

/**
 * @typedef {{
 *   kubeconfig: string,
 *   local: boolean,
 *   env: NodeJS.ProcessEnv,
 *   kubectl: (args: string[], options?: { input?: string }) => Promise<{ stdout: string, stderr: string }>,
 *   helm: (args: string[]) => Promise<{ stdout: string, stderr: string }>,
 * }} ClusterAccess
 */

/**
 * The clients for `kubeconfig` (KUBECONFIG, else the local cluster's admin kubeconfig).
 * `local` says whether it is the local cluster: images are then imported, not pushed, and
 * its Services are reached on their NodePorts at 127.0.0.1.
 * @param {string | undefined} [kubeconfig]
 * @returns {ClusterAccess}
 */
export function clusterAccess(kubeconfig = process.env.KUBECONFIG || PATHS.adminKubeconfig) {
  const file = path.resolve(kubeconfig.split(path.delimiter)[0] ?? kubeconfig);
  if (!existsSync(file))
    throw new Error(`gameday: no kubeconfig at ${file}; start the local cluster (npm run cluster:up) or set KUBECONFIG`);
  const clients = [path.dirname(kubectlBinary()), path.dirname(helmBinary())];
  const env = { ...process.env, KUBECONFIG: file, PATH: [...clients, process.env.PATH ?? ''].join(path.delimiter) };
  return {
    kubeconfig: file,
    local: file === path.resolve(PATHS.adminKubeconfig),
    env,
    kubectl: (args, { input } = {}) => run(kubectlBinary(), args, { env, input }),
    helm: (args) => run(helmBinary(), args, { env }),
  };
}
