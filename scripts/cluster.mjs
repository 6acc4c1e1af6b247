// `npm run cluster:up [-- --nodes <n>] | cluster:down | cluster:image -- <image>...`: a
// local Kubernetes of one node or more (etcd, API server, controller manager, scheduler;
// on every node containerd, kubelet, kube-proxy, kube-router's policy controller;
// CoreDNS) built from pinned Go modules.
// Progress goes to stderr; `up` prints shell exports on stdout, so
// `eval "$(npm run --silent cluster:up)"` sets KUBECONFIG and puts kubectl, helm and
// kubectl's Argo Rollouts plugin (`kubectl argo rollouts`) on PATH.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HELP, parseCommand, usageError } from '../tools/lib/cli.mjs';
import { kubernetesClientsDir } from '../tools/kubernetes-clients.mjs';
import { clusterRunning, clusterUp } from '../tools/cluster/bring-up.mjs';
import { builtBinary, ensureBinaries } from '../tools/cluster-binaries.mjs';
import { importDockerImages } from '../tools/cluster/images.mjs';
import { MAX_NODES, PATHS } from '../tools/cluster/layout.mjs';
import { clusterDown } from '../tools/cluster/teardown.mjs';

const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const USAGE = `Usage: npm run cluster:up [-- --nodes <n>] | cluster:down | cluster:image -- <image>...

  up      starts the local cluster, or reuses the running one, and prints shell exports for
          eval: eval "$(npm run --silent cluster:up)" sets KUBECONFIG and PATH
          --nodes <n>  how many nodes, 1 to ${MAX_NODES} (default 1; a running cluster of
                       another size is refused)
  down    stops it and removes everything it made; harmless when none runs
  image   copies local Docker images into every node's containerd`;

/** @param {string | undefined} value */
function nodeCount(value) {
  if (value === undefined) return undefined;
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= MAX_NODES))
    usageError('cluster', USAGE, `--nodes takes a whole number from 1 to ${MAX_NODES}, not ${JSON.stringify(value)}`);
  return count;
}

/** @param {string[]} args @param {{ nodes?: string }} options */
async function main([command, ...rest], options) {
  if (options.nodes !== undefined && command !== 'up') usageError('cluster', USAGE, '--nodes is an option of up');
  switch (command) {
    case 'up': {
      const { binaries } = await clusterUp(log, { nodes: nodeCount(options.nodes) });
      const onPath = [kubernetesClientsDir(), path.dirname(builtBinary(binaries, 'kubectl-argo-rollouts'))];
      process.stdout.write(`export KUBECONFIG='${PATHS.adminKubeconfig}'\nexport PATH='${onPath.join(':')}':"$PATH"\n`);
      return;
    }
    case 'down':
      await clusterDown(log);
      return;
    case 'image': {
      const [image, ...moreImages] = rest;
      if (image === undefined) usageError('cluster', USAGE, 'image: name at least one local Docker image');
      if (!(await clusterRunning())) throw new Error('cluster: no cluster is running; start one with `npm run cluster:up`');
      await importDockerImages(ensureBinaries(log), [image, ...moreImages]);
      log(`cluster: imported ${rest.join(', ')}`);
      return;
    }
    default:
      usageError('cluster', USAGE, `unknown command ${JSON.stringify(command ?? '')}`);
  }
}

const { positionals, values } = parseCommand('cluster', USAGE, () =>
  parseArgs({ options: { help: HELP, nodes: { type: 'string' } }, allowPositionals: true }),
);
main(positionals, values).catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
