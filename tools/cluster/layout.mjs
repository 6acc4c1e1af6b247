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
  /** The bridge CNI puts pods on, and their addresses. */
  podBridge: 'mrdn-pods0',
  podCidr: '198.18.64.0/24',
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

export const PATHS = {
  pki: path.join(STATE_DIR, 'pki'),
  config: path.join(STATE_DIR, 'config'),
  logs: path.join(STATE_DIR, 'logs'),
  pids: path.join(STATE_DIR, 'pids'),
  etcdData: path.join(STATE_DIR, 'etcd'),
  containerdRoot: path.join(STATE_DIR, 'containerd', 'root'),
  containerdState: path.join(STATE_DIR, 'containerd', 'state'),
  containerdSocket: path.join(STATE_DIR, 'containerd', 'containerd.sock'),
  kubeletRoot: path.join(STATE_DIR, 'kubelet'),
  podLogs: path.join(STATE_DIR, 'pod-logs'),
  cniConfig: path.join(STATE_DIR, 'cni', 'net.d'),
  registryHosts: path.join(STATE_DIR, 'containerd', 'certs.d'),
  /** Kernel settings as they were before cluster:up, put back by cluster:down. */
  savedSysctls: path.join(STATE_DIR, 'sysctls.json'),
  /** Written once the cluster is whole (node Ready, DNS up): a half-started one is never reused. */
  readyMarker: path.join(STATE_DIR, 'ready'),
  cniIpam: path.join(STATE_DIR, 'cni', 'ipam'),
  adminKubeconfig: path.join(STATE_DIR, 'admin.kubeconfig'),
};

/** Debian's CNI plugins (containernetworking-plugins) and runc. */
export const CNI_BIN_DIR = '/usr/lib/cni';
export const RUNC = '/usr/sbin/runc';

/** The images the cluster itself runs, built here from our own binaries (no registry), tagged with their pins. */
export const SYSTEM_IMAGES = {
  // Our own sandbox process, built with Kubernetes.
  pause: `meridian.local/pause:${PINS.kubernetes.version}`,
  coredns: `${PINS.coredns.image}:${PINS.coredns.version}`,
};

/** The containerd namespace the kubelet's CRI uses. */
export const CONTAINERD_NAMESPACE = 'k8s.io';
