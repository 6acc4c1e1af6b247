// Where the local cluster lives: its folders, addresses, ports and names, declared
// once. Every address sits in 198.18.0.0/15, the block set aside for network
// testing (RFC 2544), so no test traffic can reach a real network.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_BLOCK } from '../lib/test-network.mjs';
import { PINS } from '../pins.mjs';

/** All state of one cluster: certificates, configs, logs, etcd and containerd data. */
export const STATE_DIR = process.env.MERIDIAN_CLUSTER_DIR || path.join(tmpdir(), 'meridian-cluster');

export const NODE_NAME = 'meridian-node';

export const NETWORK = {
  /** Everything the cluster's pods may reach. */
  testBlock: TEST_BLOCK,
  /** A bridge the script creates to hold the node's own address; nothing else is on it. */
  nodeBridge: 'mrdn-node0',
  nodeAddress: '198.18.0.1',
  nodePrefix: 24,
  /** The bridge CNI puts pods on (in each node's network namespace), and the first node's pods' addresses. */
  podBridge: 'mrdn-pods0',
  podCidr: '198.18.64.0/24',
  /** Every node's pods: node i has 198.18.(64+i).0/24. */
  clusterPodCidr: '198.18.64.0/18',
  serviceCidr: '198.18.128.0/24',
  /** The first address of the Service range: the `kubernetes` Service. */
  apiServiceAddress: '198.18.128.1',
  dnsServiceAddress: '198.18.128.10',
  clusterDomain: 'cluster.local',
};

export const PORTS = {
  etcdClient: 2379,
  etcdPeer: 2380,
  etcdHealth: 2381,
  apiServer: 6443,
  kubelet: 10250,
  kubeletHealthz: 10248,
  kubeProxyHealthz: 10256,
  kubeProxyMetrics: 10249,
  controllerManager: 10257,
  scheduler: 10259,
};

/**
 * A node's own folders: its runtime's, its kubelet's, its pods' logs and network.
 * @param {string} dir
 */
function nodePaths(dir) {
  return {
    config: path.join(dir, 'config'),
    containerdRoot: path.join(dir, 'containerd', 'root'),
    containerdState: path.join(dir, 'containerd', 'state'),
    containerdSocket: path.join(dir, 'containerd', 'containerd.sock'),
    kubeletRoot: path.join(dir, 'kubelet'),
    podLogs: path.join(dir, 'pod-logs'),
    cniConfig: path.join(dir, 'cni', 'net.d'),
    cniIpam: path.join(dir, 'cni', 'ipam'),
    registryHosts: path.join(dir, 'containerd', 'certs.d'),
  };
}

/** The first node's folders are the cluster's own, as they were when it had one node. */
export const PATHS = {
  ...nodePaths(STATE_DIR),
  pki: path.join(STATE_DIR, 'pki'),
  logs: path.join(STATE_DIR, 'logs'),
  pids: path.join(STATE_DIR, 'pids'),
  etcdData: path.join(STATE_DIR, 'etcd'),
  /** Kernel settings as they were before cluster:up, put back by cluster:down. */
  savedSysctls: path.join(STATE_DIR, 'sysctls.json'),
  /** Written once the cluster is whole (node Ready, DNS up): a half-started one is never reused. */
  readyMarker: path.join(STATE_DIR, 'ready'),
  /** How many nodes `cluster:up` started, for whatever later reads or stops them. */
  nodeCount: path.join(STATE_DIR, 'nodes.json'),
  adminKubeconfig: path.join(STATE_DIR, 'admin.kubeconfig'),
};

/** The most nodes one machine's cluster has: each takes a /24 of `clusterPodCidr` and an address after the first node's. */
export const MAX_NODES = 8;

/** The network namespace of node i after the first is `${NODE_NAMESPACE_PREFIX}<i>`. */
export const NODE_NAMESPACE_PREFIX = 'mrdn-n';

/** Two zones among the nodes, alternating, so a topology spread over zones has something to spread over. */
const ZONES = ['zone-a', 'zone-b'];

/**
 * @typedef {{
 *   index: number, name: string, address: string, podCidr: string, zone: string,
 *   netns: string | null, cgroupRoot: string, paths: ReturnType<typeof nodePaths>,
 * }} ClusterNode
 */

/**
 * Node `index` of the cluster. The first holds the control plane and lives in the
 * machine's own network namespace, as the single-node cluster always did; every other
 * one has a network namespace of its own (`netns`) joined to the first's bridge, and its
 * pods in cgroups under `cgroupRoot`.
 * @param {number} index
 * @returns {ClusterNode}
 */
export function clusterNode(index) {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_NODES) throw new RangeError(`cluster: no node ${index}`);
  const zone = ZONES[index % ZONES.length] ?? 'zone-a';
  if (index === 0)
    return {
      index,
      name: NODE_NAME,
      address: NETWORK.nodeAddress,
      podCidr: NETWORK.podCidr,
      zone,
      netns: null,
      cgroupRoot: '/',
      paths: PATHS,
    };
  const name = `${NODE_NAME}-${index}`;
  return {
    index,
    name,
    address: `198.18.0.${1 + index}`,
    podCidr: `198.18.${64 + index}.0/24`,
    zone,
    netns: `${NODE_NAMESPACE_PREFIX}${index}`,
    cgroupRoot: `/${name}`,
    paths: nodePaths(path.join(STATE_DIR, 'nodes', name)),
  };
}

/** The first `count` nodes. @param {number} count */
export function clusterNodes(count) {
  if (!Number.isInteger(count) || count < 1 || count > MAX_NODES)
    throw new RangeError(`cluster: a cluster has 1 to ${MAX_NODES} nodes, not ${count}`);
  return Array.from({ length: count }, (_, index) => clusterNode(index));
}

/** Debian's CNI plugins (containernetworking-plugins) and runc. */
export const CNI_BIN_DIR = '/usr/lib/cni';
export const RUNC = '/usr/sbin/runc';

/** The images the cluster itself runs, built here from our own binaries (no registry), tagged with their pins. */
export const SYSTEM_IMAGES = {
  // Our own sandbox process, built with Kubernetes.
  pause: `meridian.local/pause:${PINS.kubernetes.version}`,
  coredns: `${PINS.coredns.image}:${PINS.coredns.version}`,
  metricsServer: `${PINS['metrics-server'].image}:${PINS['metrics-server'].version}`,
  prometheusAdapter: `${PINS['prometheus-adapter'].image}:${PINS['prometheus-adapter'].version}`,
};

/** The containerd namespace the kubelet's CRI uses. */
export const CONTAINERD_NAMESPACE = 'k8s.io';
