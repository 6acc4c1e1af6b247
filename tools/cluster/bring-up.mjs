// cluster:up: a cluster of one node or more from the pinned binaries, or the one already running.
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { succeeds } from '../lib/command.mjs';
import { canListen } from '../lib/ports.mjs';
import { ensureDebianPackages, ensurePinnedDebianPackages } from '../debian-packages.mjs';
import { waitFor } from '../lib/wait.mjs';
import { dnsManifest, policyControllerRbacManifest } from './addons.mjs';
import { startMetricsServer } from './metrics-server.mjs';
import { ensureBinaries } from '../cluster-binaries.mjs';
import { componentName, componentNames, controlPlaneComponents, KUBECONFIG_IDENTITIES, nodeComponents } from './components.mjs';
import { writeConfigFiles } from './config-files.mjs';
import { probe, waitHealthy } from './health.mjs';
import { importSystemImages } from './images.mjs';
import { writeKubeconfig } from './kubeconfig.mjs';
import { kubectl } from './kubectl.mjs';
import { clusterNodes, NETWORK, PATHS, PORTS, STATE_DIR } from './layout.mjs';
import { recordedNodes, recordNodeCount } from './node-count.mjs';
import { checkKernel, setUpNodeNetwork, setUpWorkerNetwork, workerNamespaces } from './node-network.mjs';
import { kubeletCertificates, writePki } from './pki.mjs';
import { logTail, runningPid, startProcess } from './processes.mjs';
import { clusterDown } from './teardown.mjs';

function checkPrerequisites() {
  if (process.getuid?.() !== 0) throw new Error('cluster: must run as root (it creates a bridge, mounts, cgroups and iptables rules)');
  checkKernel();
  ensurePinnedDebianPackages(['runc', 'cni-plugins']);
  // ipset: kube-router's policy controller keeps the policies' peers in sets.
  ensureDebianPackages(['iptables', 'ipset', 'openssl']);
}

/** Whether a cluster came up whole, every component of it still runs, and the API server is ready. */
export async function clusterRunning() {
  if (!existsSync(PATHS.readyMarker) || !componentNames(recordedNodes()).every((name) => runningPid(name))) return false;
  return probe(`https://${NETWORK.nodeAddress}:${PORTS.apiServer}/readyz`, { admin: true }).then(
    (status) => status === 200,
    () => false,
  );
}

/** The ports the components listen on, by who listens. */
const COMPONENT_PORTS = {
  [PORTS.etcdClient]: 'etcd',
  [PORTS.etcdPeer]: 'etcd peers',
  [PORTS.etcdHealth]: 'etcd health',
  [PORTS.apiServer]: 'kube-apiserver',
  [PORTS.controllerManager]: 'kube-controller-manager',
  [PORTS.scheduler]: 'kube-scheduler',
  [PORTS.kubelet]: 'kubelet',
  [PORTS.kubeletHealthz]: 'kubelet health',
  [PORTS.kubeProxyHealthz]: 'kube-proxy health',
  [PORTS.kubeProxyMetrics]: 'kube-proxy metrics',
};

/**
 * Fails with one line naming the first port another process holds. Checked on every
 * address, before anything is set up, so a refused start leaves nothing behind.
 */
async function checkPortsFree() {
  for (const [port, owner] of Object.entries(COMPONENT_PORTS)) {
    if (!(await canListen(Number(port), '0.0.0.0'))) {
      throw new Error(
        `cluster: port ${port} (${owner}) is already in use by another process; find it with \`ss -ltnp 'sport = :${port}'\`, stop it, and run cluster:up again`,
      );
    }
  }
}

/** @param {import('./components.mjs').Component} component */
function startComponent(component) {
  startProcess(component.name, component.binary, component.args, component.env);
}

/** @param {import('./components.mjs').Component} component */
async function waitComponent(component) {
  const { health } = component;
  if ('url' in health) return waitHealthy(component.name, health.url, { admin: health.admin });
  const [command = '', ...args] = health.command;
  await waitFor(
    component.name,
    () => {
      if (!succeeds(command, args, { timeoutMs: 5000 })) throw new Error(`\`${health.command.join(' ')}\` failed`);
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  ).catch((error) => {
    throw new Error(`cluster: ${component.name} is not ready: ${error.message}\n--- last lines of its log ---\n${logTail(component.name)}`);
  });
}

/** @param {import('./layout.mjs').ClusterNode} node */
async function waitNodeReady(node) {
  await waitFor(
    `node ${node.name} to be Ready`,
    async () => {
      const { stdout } = await kubectl(['get', 'node', node.name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
      if (stdout.trim() !== 'True') throw new Error(`Ready is ${stdout.trim() || 'unknown'}`);
    },
    { timeoutMs: 90_000, intervalMs: 1000 },
  ).catch((error) => {
    throw new Error(`cluster: ${error.message}\n--- last lines of the kubelet's log ---\n${logTail(componentName('kubelet', node))}`);
  });
}

/**
 * A node's cgroup root in every cgroup v1 hierarchy, for its kubelet (which refuses a
 * root that does not exist); its cpuset copied from the machine's, as a new cpuset
 * cgroup starts with none and no process could join it.
 * @param {import('./layout.mjs').ClusterNode} node
 */
function makeCgroupRoot(node) {
  const root = '/sys/fs/cgroup';
  for (const hierarchy of readdirSync(root).filter((name) => name !== 'unified')) {
    const dir = path.join(root, hierarchy, node.cgroupRoot);
    mkdirSync(dir, { recursive: true });
    if (hierarchy === 'cpuset')
      for (const file of ['cpuset.cpus', 'cpuset.mems']) copyFileSync(path.join(root, hierarchy, file), path.join(dir, file));
  }
}

/**
 * Starts a node's components, each once the one before is healthy, and waits for the
 * node to be Ready.
 * @param {Record<string, string>} binaries @param {import('./layout.mjs').ClusterNode} node
 * @param {(line: string) => void} log
 */
export async function startNode(binaries, node, log) {
  let nodeReady = false;
  for (const component of nodeComponents(binaries, node)) {
    if (component.afterNodeReady && !nodeReady) {
      await waitNodeReady(node);
      nodeReady = true;
    }
    log(`cluster: starting ${component.name} (log: ${PATHS.logs}/${component.name}.log)`);
    startComponent(component);
    await waitComponent(component);
    if (component.name === componentName('containerd', node)) await importSystemImages(binaries, node);
  }
  if (!nodeReady) await waitNodeReady(node);
}

async function startDns() {
  await kubectl(['apply', '--server-side', '-f', '-'], { input: dnsManifest() });
  await kubectl(['-n', 'kube-system', 'rollout', 'status', 'deployment/coredns', '--timeout=120s']).catch(async (error) => {
    const { stdout } = await kubectl(['-n', 'kube-system', 'describe', 'pods', '-l', 'k8s-app=kube-dns']).catch(() => ({ stdout: '' }));
    throw new Error(`cluster: CoreDNS did not become ready: ${error.message}\n${stdout.split('\n').slice(-20).join('\n')}`);
  });
}

/**
 * Starts the cluster unless it already runs; cleans up what a killed run left first.
 * `nodes` asks for that many nodes (one when not given); a running cluster of another
 * size is refused, not replaced. Resolves with the binaries (by name) and whether this
 * call started the cluster.
 * @param {(line: string) => void} log
 * @param {{ nodes?: number }} [options]
 */
export async function clusterUp(log, { nodes: requested } = {}) {
  const nodes = clusterNodes(requested ?? 1);
  checkPrerequisites();
  const binaries = ensureBinaries(log);
  if (await clusterRunning()) {
    const running = recordedNodes().length;
    if (requested !== undefined && requested !== running) {
      throw new Error(
        `cluster: a cluster of ${running} node${running === 1 ? '' : 's'} runs from ${STATE_DIR}; stop it with \`npm run cluster:down\` to start one of ${requested}`,
      );
    }
    log(`cluster: reusing the cluster running from ${STATE_DIR}`);
    return { binaries, started: false };
  }
  if (existsSync(STATE_DIR) || componentNames(recordedNodes()).some((name) => runningPid(name)) || workerNamespaces().length > 0) {
    log(`cluster: found what an earlier cluster left in ${STATE_DIR} (not all of it running, or never ready); cleaning it up first`);
    await clusterDown(log);
  }
  await checkPortsFree();
  recordNodeCount(nodes.length);
  setUpNodeNetwork();
  writePki(nodes);
  for (const identity of [...KUBECONFIG_IDENTITIES, ...nodes.map((node) => kubeletCertificates(node).client)]) writeKubeconfig(identity);
  for (const node of nodes) writeConfigFiles(node);
  const started = Date.now();
  for (const component of controlPlaneComponents(binaries)) {
    log(`cluster: starting ${component.name} (log: ${PATHS.logs}/${component.name}.log)`);
    startComponent(component);
    await waitComponent(component);
  }
  await kubectl(['apply', '--server-side', '-f', '-'], { input: policyControllerRbacManifest() });
  for (const node of nodes) {
    if (node.netns) {
      setUpWorkerNetwork(node, nodes);
      makeCgroupRoot(node);
    }
    await startNode(binaries, node, log);
  }
  log(`cluster: ${nodes.length === 1 ? 'node' : `${nodes.length} nodes`} Ready; starting CoreDNS`);
  await startDns();
  log('cluster: starting metrics-server (the metrics API answers once it has scraped the kubelets, within a minute)');
  await startMetricsServer();
  writeFileSync(PATHS.readyMarker, new Date().toISOString());
  log(`cluster: ready in ${Math.round((Date.now() - started) / 1000)} s`);
  return { binaries, started: true };
}
