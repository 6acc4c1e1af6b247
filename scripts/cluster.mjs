// `npm run cluster:up | cluster:down | cluster:image -- <image>...`: a local single-node
// Kubernetes (etcd, API server, controller manager, scheduler, containerd, kubelet,
// kube-proxy, kube-router's policy controller, CoreDNS) built from pinned Go modules.
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
import { PATHS } from '../tools/cluster/layout.mjs';
import { clusterDown } from '../tools/cluster/teardown.mjs';

const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const USAGE = `Usage: npm run cluster:up | cluster:down | cluster:image -- <image>...

  up      starts the local cluster, or reuses the running one, and prints shell exports for
          eval: eval "$(npm run --silent cluster:up)" sets KUBECONFIG and PATH
  down    stops it and removes everything it made; harmless when none runs
  image   copies local Docker images into the cluster's containerd`;

/** @param {string[]} args */
async function main([command, ...rest]) {
  switch (command) {
    case 'up': {
      const { binaries } = await clusterUp(log);
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

const { positionals } = parseCommand('cluster', USAGE, () => parseArgs({ options: { help: HELP }, allowPositionals: true }));
main(positionals).catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
