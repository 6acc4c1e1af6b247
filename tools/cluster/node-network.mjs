// The nodes' network: a bridge holding the first node's address, a network namespace
// joined to it for every other node, routes to each node's pods, the kernel switches a
// Kubernetes node needs, a fence that keeps pods' traffic inside 198.18.0.0/15, and on
// the way down the removal of every namespace, interface, iptables chain and ip set the
// cluster made (kube-proxy's and kube-router's KUBE-*, the CNI plugins' CNI-*, our
// MERIDIAN-*) and the kernel settings put back as they were.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSync, succeeds } from '../lib/command.mjs';
import { NETWORK, NODE_NAMESPACE_PREFIX, PATHS, PORTS } from './layout.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

/** @param {string[]} args */
function ip(args) {
  runSync('ip', args);
}

/** @param {string} name */
function linkExists(name) {
  return succeeds('ip', ['link', 'show', name]);
}

const SYSCTLS = {
  // Pods' traffic to Services and to the outside is routed by the node.
  'net/ipv4/ip_forward': '1',
  // Bridged pod traffic must pass iptables, or Services are not translated between pods on the node's bridge.
  'net/bridge/bridge-nf-call-iptables': '1',
};

/**
 * Set while the cluster runs when the kernel has IPv6. Pods' interfaces on the machine get
 * no IPv6 link-local address: a browser on the machine (Chromium's network change notifier)
 * takes any address appearing or going for a change of network and fails its requests
 * waiting for a connection with net::ERR_NETWORK_CHANGED, so every pod started or stopped
 * would break a page load under way in a visitor's tab on the machine.
 */
const IPV6_SYSCTLS = { 'net/ipv6/conf/default/addr_gen_mode': '1' };

const presentIpv6Sysctls = () => Object.entries(IPV6_SYSCTLS).filter(([key]) => existsSync(`/proc/sys/${key}`));

/** Fails with one line when the kernel lacks what the node needs. */
export function checkKernel() {
  for (const key of Object.keys(SYSCTLS)) {
    if (!existsSync(`/proc/sys/${key}`)) {
      throw new Error(
        `cluster: this kernel has no /proc/sys/${key} (${key.includes('bridge') ? 'bridge netfilter, CONFIG_BRIDGE_NETFILTER' : 'IPv4 forwarding'}); a Kubernetes node needs it`,
      );
    }
  }
}

/**
 * Kernel settings the cluster changes: ours above; kube-proxy's route_localnet (for
 * localhost NodePorts); the kubelet's panic and overcommit defaults.
 */
const CHANGED_SYSCTLS = [
  ...Object.keys(SYSCTLS),
  'net/ipv4/conf/all/route_localnet',
  'kernel/panic',
  'kernel/panic_on_oops',
  'vm/overcommit_memory',
];

function saveSysctls() {
  if (existsSync(PATHS.savedSysctls)) return;
  mkdirSync(path.dirname(PATHS.savedSysctls), { recursive: true });
  const saved = Object.fromEntries(
    [...CHANGED_SYSCTLS, ...presentIpv6Sysctls().map(([key]) => key)].map((key) => [key, readFileSync(`/proc/sys/${key}`, 'utf8').trim()]),
  );
  writeFileSync(PATHS.savedSysctls, JSON.stringify(saved));
}

function restoreSysctls() {
  if (!existsSync(PATHS.savedSysctls)) return;
  for (const [key, value] of Object.entries(JSON.parse(readFileSync(PATHS.savedSysctls, 'utf8'))))
    writeFileSync(`/proc/sys/${key}`, String(value));
}

const POD_FENCE = 'MERIDIAN-POD-EGRESS';

/**
 * Pods may reach only addresses in 198.18.0.0/15 (the node, pods, Services, the tests'
 * other hosts): their packets to anything else are dropped before routing, so no pod
 * can reach the machine's network or its resolver. Every other node routes through the
 * first one, so this one fence holds for all pods.
 */
function fencePods() {
  runSync('iptables-restore', ['--noflush'], {
    input: `*raw\n:${POD_FENCE} - [0:0]\n-A ${POD_FENCE} -s ${NETWORK.clusterPodCidr} ! -d ${NETWORK.testBlock} -j DROP\n-I PREROUTING 1 -j ${POD_FENCE}\nCOMMIT\n`,
  });
}

const API_SERVER_LOOPBACK = 'MERIDIAN-APISERVER-LOOPBACK';

/**
 * The API server binds one address, the node's; this machine's own connections to
 * 127.0.0.1:6443 are translated to it, so it answers on loopback too without
 * listening on every interface (the external one included).
 */
function apiServerOnLoopback() {
  const rule = `-d 127.0.0.1/32 -p tcp -m tcp --dport ${PORTS.apiServer} -j DNAT --to-destination ${NETWORK.nodeAddress}:${PORTS.apiServer}`;
  runSync('iptables-restore', ['--noflush'], {
    input: `*nat\n:${API_SERVER_LOOPBACK} - [0:0]\n-A ${API_SERVER_LOOPBACK} ${rule}\n-I OUTPUT 1 -j ${API_SERVER_LOOPBACK}\nCOMMIT\n`,
  });
}

const NODE_FORWARD = 'MERIDIAN-NODE-FORWARD';

/**
 * What crosses the first node on its way between the nodes: whatever its bridge carries
 * from one other node to another (their pods, their NodePorts' masqueraded traffic), and
 * what it routes to its own pods from the nodes and their pods. A Docker engine on the
 * machine sets FORWARD's policy to DROP, so it is accepted here, after every other chain:
 * the first node's kube-router, inserted first, has already applied the NetworkPolicies
 * of its pods, and every other node applies its own in its namespace.
 */
function forwardBetweenNodes() {
  const pods = NETWORK.clusterPodCidr;
  const rules = [
    `-i ${NETWORK.nodeBridge} -o ${NETWORK.nodeBridge} -j ACCEPT`,
    `-s ${NETWORK.nodeAddress}/${NETWORK.nodePrefix} -d ${pods} -j ACCEPT`,
    `-s ${pods} -d ${pods} -j ACCEPT`,
  ];
  runSync('iptables-restore', ['--noflush'], {
    input: `*filter\n:${NODE_FORWARD} - [0:0]\n${rules.map((rule) => `-A ${NODE_FORWARD} ${rule}\n`).join('')}-A FORWARD -j ${NODE_FORWARD}\nCOMMIT\n`,
  });
}

/** The first node's, in the machine's own network namespace. */
export function setUpNodeNetwork() {
  saveSysctls();
  for (const [key, value] of [...Object.entries(SYSCTLS), ...presentIpv6Sysctls()]) writeFileSync(`/proc/sys/${key}`, value);
  fencePods();
  forwardBetweenNodes();
  apiServerOnLoopback();
  if (!linkExists(NETWORK.nodeBridge)) ip(['link', 'add', NETWORK.nodeBridge, 'type', 'bridge']);
  const address = `${NETWORK.nodeAddress}/${NETWORK.nodePrefix}`;
  if (!runSync('ip', ['-o', 'addr', 'show', 'dev', NETWORK.nodeBridge]).stdout.includes(address)) {
    ip(['addr', 'add', address, 'dev', NETWORK.nodeBridge]);
  }
  ip(['link', 'set', NETWORK.nodeBridge, 'up']);
  // Services' addresses are the node's to translate: routed to its bridge from its own address, so a
  // connection the machine opens before kube-proxy has a rule for the Service (the API server's to
  // an APIService just made, say) never leaves by the default route, where this machine's network
  // may answer it (an egress proxy answered the metrics API's with 404s, on a connection kept open).
  ip(['route', 'replace', NETWORK.serviceCidr, 'dev', NETWORK.nodeBridge, 'src', NETWORK.nodeAddress]);
}

/** @param {ClusterNode} node @param {string[]} args */
function ipIn(node, args) {
  ip(['-n', /** @type {string} */ (node.netns), ...args]);
}

/**
 * A node after the first: its own network namespace, joined to the first node's bridge
 * by a veth (the machine's end named after the namespace), holding the node's address,
 * routed to the machine through the first node, and to each other node's pods through
 * that node; the machine's namespace routes to its pods the same way.
 * @param {ClusterNode} node @param {ClusterNode[]} nodes all the cluster's
 */
export function setUpWorkerNetwork(node, nodes) {
  const netns = /** @type {string} */ (node.netns);
  ip(['netns', 'add', netns]);
  ip(['link', 'add', netns, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns]);
  ip(['link', 'set', netns, 'master', NETWORK.nodeBridge, 'up']);
  ipIn(node, ['link', 'set', 'lo', 'up']);
  ipIn(node, ['addr', 'add', `${node.address}/${NETWORK.nodePrefix}`, 'dev', 'eth0']);
  ipIn(node, ['link', 'set', 'eth0', 'up']);
  ipIn(node, ['route', 'add', 'default', 'via', NETWORK.nodeAddress]);
  for (const other of nodes) {
    if (other.index !== 0 && other.index !== node.index) ipIn(node, ['route', 'add', other.podCidr, 'via', other.address]);
  }
  ip(['route', 'replace', node.podCidr, 'via', node.address]);
  // The namespace's own switches (a new namespace starts with forwarding off).
  for (const [key, value] of Object.entries(SYSCTLS))
    runSync('ip', ['netns', 'exec', netns, 'sysctl', '-q', '-w', `${key.replaceAll('/', '.')}=${value}`]);
}

/** The network namespaces of the nodes after the first. */
export function workerNamespaces() {
  const pattern = new RegExp(`^${NODE_NAMESPACE_PREFIX}\\d+$`);
  return existsSync('/run/netns') ? readdirSync('/run/netns').filter((name) => pattern.test(name)) : [];
}

const OURS = /^(KUBE|CNI|MERIDIAN)-/;

/**
 * iptables-restore input that deletes every rule jumping to one of the cluster's chains
 * and then the chains themselves; other chains (Docker's, the machine's) are untouched.
 * @param {string} saved what iptables-save printed
 */
export function chainRemovalScript(saved) {
  /** @type {string[]} */
  const out = [];
  /** @type {string | null} */
  let table = null;
  /** @type {string[]} */
  let ours = [];
  /** @type {string[]} */
  let deletions = [];
  const flushTable = () => {
    if (table && (ours.length || deletions.length)) {
      out.push(`*${table}`, ...deletions, ...ours.map((chain) => `-F ${chain}`), ...ours.map((chain) => `-X ${chain}`), 'COMMIT');
    }
  };
  for (const line of saved.split('\n')) {
    if (line.startsWith('*')) {
      flushTable();
      table = line.slice(1).trim();
      ours = [];
      deletions = [];
    } else if (line.startsWith(':')) {
      const chain = line.slice(1).split(' ')[0] ?? '';
      if (OURS.test(chain)) ours.push(chain);
    } else if (line.startsWith('-A ')) {
      const [, chain = ''] = line.split(' ');
      const target = / -[jg] (\S+)/.exec(line)?.[1] ?? '';
      if (!OURS.test(chain) && OURS.test(target)) deletions.push(`-D ${line.slice(3)}`);
    }
  }
  flushTable();
  return out.length ? `${out.join('\n')}\n` : '';
}

/** @param {'iptables' | 'ip6tables'} family */
function removeChains(family) {
  const save = runSync(`${family}-save`, [], { check: false });
  if (save.exitCode !== 0) return;
  const script = chainRemovalScript(save.stdout);
  if (script) runSync(`${family}-restore`, ['--noflush'], { input: script });
}

/** The ip sets kube-router's policy controller made (KUBE-SRC-*, KUBE-DST-*; `inet6:` ones for IPv6). */
export function clusterIpSets() {
  const list = runSync('ipset', ['list', '-n'], { check: false });
  if (list.exitCode !== 0) return [];
  return list.stdout.split('\n').filter((name) => /^(inet6:)?KUBE-/.test(name));
}

/**
 * Removes the nodes' namespaces, the bridges, every iptables chain and then every ip set the cluster made (no rule
 * refers to a set once the chains are gone) and puts the kernel settings back; harmless
 * when there is nothing to remove.
 */
export function tearDownNodeNetwork() {
  // A namespace goes with its interfaces, routes, chains and ip sets, and the machine's veth end.
  for (const netns of workerNamespaces()) ip(['netns', 'delete', netns]);
  removeChains('iptables');
  removeChains('ip6tables');
  for (const set of clusterIpSets()) runSync('ipset', ['destroy', set], { check: false });
  restoreSysctls();
  for (const bridge of [NETWORK.podBridge, NETWORK.nodeBridge]) {
    if (linkExists(bridge)) ip(['link', 'delete', bridge]);
  }
}
