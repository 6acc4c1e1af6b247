// kubectl and helm as the cluster's admin: the clients the tests and cluster:up use.
import { run } from '../lib/command.mjs';
import { helmBinary, kubectlBinary } from '../kubernetes-clients.mjs';
import { PATHS } from './layout.mjs';

const adminEnv = () => ({ ...process.env, KUBECONFIG: PATHS.adminKubeconfig });

/** @param {string[]} args @param {{ input?: string }} [options] */
export function kubectl(args, { input } = {}) {
  return run(kubectlBinary(), args, { env: adminEnv(), input });
}

/** @param {string[]} args */
export function helm(args) {
  return run(helmBinary(), args, { env: adminEnv() });
}
