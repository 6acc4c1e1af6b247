// cluster:up: a single-node cluster from the pinned binaries, or the one already running.
import { existsSync, writeFileSync } from 'node:fs';
import { succeeds } from '../lib/command.mjs';
import { canListen } from '../lib/ports.mjs';
import { ensureDebianPackages, ensurePinnedDebianPackages } from '../debian-packages.mjs';
import { waitFor } from '../lib/wait.mjs';
import { dnsManifest, policyControllerRbacManifest } from './addons.mjs';
import { ensureBinaries } from '../cluster-binaries.mjs';
import { COMPONENT_NAMES, components, KUBECONFIG_IDENTITIES } from './components.mjs';
import { writeConfigFiles } from './config-files.mjs';
import { probe, waitHealthy } from './health.mjs';
import { importSystemImages } from './images.mjs';
import { writeKubeconfig } from './kubeconfig.mjs';
import { kubectl } from './kubectl.mjs';
import { NETWORK, NODE_NAME, PATHS, PORTS, STATE_DIR } from './layout.mjs';
import { checkKernel, setUpNodeNetwork } from './node-network.mjs';
import { writePki } from './pki.mjs';
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
  if (!existsSync(PATHS.readyMarker) || !COMPONENT_NAMES.every((name) => runningPid(name))) return false;
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

async function waitNodeReady() {
  await waitFor(
    `node ${NODE_NAME} to be Ready`,
    async () => {
      const { stdout } = await kubectl(['get', 'node', NODE_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
      if (stdout.trim() !== 'True') throw new Error(`Ready is ${stdout.trim() || 'unknown'}`);
    },
    { timeoutMs: 90_000, intervalMs: 1000 },
  ).catch((error) => {
    throw new Error(`cluster: ${error.message}\n--- last lines of the kubelet's log ---\n${logTail('kubelet')}`);
  });
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
 * Resolves with the binaries (by name) and whether this call started the cluster.
 * @param {(line: string) => void} log
 */
export async function clusterUp(log) {
  checkPrerequisites();
  const binaries = ensureBinaries(log);
  if (await clusterRunning()) {
    log(`cluster: reusing the cluster running from ${STATE_DIR}`);
    return { binaries, started: false };
  }
  if (existsSync(STATE_DIR) || COMPONENT_NAMES.some((name) => runningPid(name))) {
    log(`cluster: found what an earlier cluster left in ${STATE_DIR} (not all of it running, or never ready); cleaning it up first`);
    await clusterDown(log);
  }
  await checkPortsFree();
  setUpNodeNetwork();
  writePki();
  for (const identity of KUBECONFIG_IDENTITIES) writeKubeconfig(identity);
  writeConfigFiles();
  const started = Date.now();
  let nodeReady = false;
  for (const component of components(binaries)) {
    if (component.afterNodeReady && !nodeReady) {
      await waitNodeReady();
      nodeReady = true;
    }
    log(`cluster: starting ${component.name} (log: ${PATHS.logs}/${component.name}.log)`);
    startComponent(component);
    await waitComponent(component);
    if (component.name === 'kube-apiserver')
      await kubectl(['apply', '--server-side', '-f', '-'], { input: policyControllerRbacManifest() });
    if (component.name === 'containerd') await importSystemImages(binaries);
  }
  if (!nodeReady) await waitNodeReady();
  log('cluster: node Ready; starting CoreDNS');
  await startDns();
  writeFileSync(PATHS.readyMarker, new Date().toISOString());
  log(`cluster: ready in ${Math.round((Date.now() - started) / 1000)} s`);
  return { binaries, started: true };
}
