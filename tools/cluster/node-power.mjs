// A node's power cut and restored: what a node loss looks like from the rest of the
// cluster, for the node tests and the game day.
import { runSync } from '../lib/command.mjs';
import { startNode } from './bring-up.mjs';
import { componentName, NODE_COMPONENTS } from './components.mjs';
import { processesWhere, runningPid } from './processes.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

/** @param {ClusterNode} node */
function checkWorker(node) {
  if (!node.netns) throw new Error('cluster: the first node holds the control plane; only another node can lose its power');
}

/**
 * Pids of the node's pods and of its containerd's shims.
 * @param {ClusterNode} node
 */
function podAndShimPids(node) {
  const shims = processesWhere('cmdline', (text) => text.includes('containerd-shim') && text.includes(node.paths.containerdSocket));
  return [...processesWhere('cgroup', (text) => text.includes(`:${node.cgroupRoot}/kubepods`)), ...shims];
}

/**
 * Cuts a node's power, as far as the cluster can tell: its link goes dark first (its
 * address and its pods stop answering, with no reset or refusal), then every process of
 * it (its kubelet, containerd and their shims, kube-proxy, kube-router, its pods) is
 * killed at once, with no chance to say goodbye.
 * @param {ClusterNode} node
 */
export function powerOffNode(node) {
  checkWorker(node);
  runSync('ip', ['link', 'set', /** @type {string} */ (node.netns), 'down']);
  const agents = NODE_COMPONENTS.map((component) => runningPid(componentName(component, node))).filter((pid) => pid !== null);
  for (const pid of [...agents, ...podAndShimPids(node)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * Brings a powered-off node back: its link up, its components started again (containerd
 * finds its dead tasks and cleans them up; the kubelet finds its pods gone), until it is
 * Ready.
 * @param {Record<string, string>} binaries @param {ClusterNode} node @param {(line: string) => void} log
 */
export async function powerOnNode(binaries, node, log) {
  checkWorker(node);
  runSync('ip', ['link', 'set', /** @type {string} */ (node.netns), 'up']);
  await startNode(binaries, node, log);
}
