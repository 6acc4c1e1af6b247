// cluster:down: stops everything the cluster started and removes what it left on
// the machine (processes, shim sockets, mounts, cgroups, iptables chains, interfaces,
// its state folder) and puts back the kernel settings it changed. Every step is
// harmless when there is nothing to remove, so it can run twice.
import { existsSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { runSync, succeeds } from '../lib/command.mjs';
import { componentName, componentNames, NODE_COMPONENTS } from './components.mjs';
import { clusterNodes, CONTAINERD_NAMESPACE, MAX_NODES, STATE_DIR } from './layout.mjs';
import { recordedNodes } from './node-count.mjs';
import { tearDownNodeNetwork } from './node-network.mjs';
import { processesWhere, recordedProcesses, runningPid, stopPid, stopProcess } from './processes.mjs';

/** The cgroup folders the nodes' kubelets (cgroupfs driver) keep pods under: kubepods in each node's cgroup root. */
const POD_CGROUPS = clusterNodes(MAX_NODES).map((node) => path.posix.join(node.cgroupRoot, 'kubepods'));

/** Whether a /proc/<pid>/cgroup text (`id:controllers:path` lines) puts the process under a pod's cgroup. @param {string} text */
const inPodCgroup = (text) =>
  text.split('\n').some((line) => {
    const where = line.split(':').slice(2).join(':');
    return POD_CGROUPS.some((root) => where === root || where.startsWith(`${root}/`));
  });

/** Every container of every pod on every node. */
function podProcesses() {
  return processesWhere('cgroup', inPodCgroup);
}

/** containerd's shims outlive it (they are daemons); ours name a socket in the state folder. */
function shimProcesses() {
  return processesWhere('cmdline', (text) => text.includes('containerd-shim') && text.includes(`${STATE_DIR}/`));
}

/** @param {number[]} pids */
async function killAll(pids) {
  await Promise.all(pids.map((pid) => stopPid(pid, 0)));
}

/**
 * Every container task deleted through containerd itself (its ctr beside the running
 * binary), so each shim exits cleanly and removes its socket from /run/containerd/s,
 * a folder containerd shares with Docker's.
 */
/** @param {import('./layout.mjs').ClusterNode} node */
function deleteContainerdTasks(node) {
  const pid = runningPid(componentName('containerd', node));
  if (!pid) return;
  const ctr = path.join(path.dirname(readlinkSync(`/proc/${pid}/exe`)), 'ctr');
  const args = ['--address', node.paths.containerdSocket, '--namespace', CONTAINERD_NAMESPACE, '--timeout', '10s'];
  const tasks = runSync(ctr, [...args, 'tasks', 'list', '--quiet'], { check: false, timeoutMs: 15_000 });
  for (const id of tasks.stdout.split('\n').filter(Boolean)) {
    runSync(ctr, [...args, 'tasks', 'delete', '--force', id], { check: false, timeoutMs: 15_000 });
  }
}

/** Mount points under the state folder (overlay roots, shm, netns, volumes), deepest first. */
function mountsUnderState() {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((point) => point === STATE_DIR || point.startsWith(`${STATE_DIR}/`))
    .sort((a, b) => b.length - a.length);
}

function unmountAll() {
  for (const point of mountsUnderState()) {
    if (!succeeds('umount', [point])) succeeds('umount', ['--lazy', point]);
  }
}

/** Removes a cgroup folder tree bottom-up (cgroup folders go with rmdir, never rm). @param {string} dir */
function removeCgroupTree(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeCgroupTree(path.join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // Still busy: a later down removes it.
  }
}

/** What the nodes leave in each hierarchy: the first node's kubepods, and every other node's cgroup root. */
const NODE_CGROUPS = clusterNodes(MAX_NODES).map((node) => (node.cgroupRoot === '/' ? 'kubepods' : node.cgroupRoot));

function removePodCgroups() {
  const root = '/sys/fs/cgroup';
  for (const hierarchy of readdirSync(root)) for (const name of NODE_CGROUPS) removeCgroupTree(path.join(root, hierarchy, name));
}

/** The kubelet links every container log into /var/log/containers, whatever its pod log folder. */
function removeContainerLogLinks() {
  const dir = '/var/log/containers';
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const link = path.join(dir, name);
    try {
      if (readlinkSync(link).startsWith(`${STATE_DIR}/`)) unlinkSync(link);
    } catch {
      // Not a link.
    }
  }
}

/** Every node's agents (the kubelet, kube-proxy, kube-router), by process name. @param {import('./layout.mjs').ClusterNode[]} nodes */
function agentNames(nodes) {
  const agents = NODE_COMPONENTS.filter((component) => component !== 'containerd');
  return nodes.flatMap((node) => agents.map((component) => componentName(component, node)));
}

/**
 * The reverse of the start order: every node's agents first, so nothing restarts a
 * pod; then the pods, the runtimes, the control plane.
 * @param {(line: string) => void} log
 */
export async function clusterDown(log) {
  const found = existsSync(STATE_DIR) || recordedProcesses().some((name) => runningPid(name)) || podProcesses().length > 0;
  const nodes = recordedNodes();
  const agents = agentNames(nodes);
  for (const name of [...agents].reverse()) await stopProcess(name);
  for (const node of nodes) deleteContainerdTasks(node);
  await killAll(podProcesses());
  for (const name of componentNames(nodes)
    .reverse()
    .filter((name) => !agents.includes(name)))
    await stopProcess(name);
  await killAll(shimProcesses());
  for (const name of recordedProcesses()) await stopProcess(name);
  unmountAll();
  removePodCgroups();
  removeContainerLogLinks();
  tearDownNodeNetwork();
  rmSync(STATE_DIR, { recursive: true, force: true });
  log(found ? `cluster: stopped; removed ${STATE_DIR}` : 'cluster: nothing was running');
}
