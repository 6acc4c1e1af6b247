// The configuration files of containerd, the CNI network, the kubelet and kube-proxy.
// Each non-default setting carries the reason this machine needs it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CNI_BIN_DIR, NETWORK, PORTS, RUNC, SYSTEM_IMAGES } from './layout.mjs';
import { kubeconfigPath } from './kubeconfig.mjs';
import { kubeletCertificates, pkiFiles } from './pki.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

/** A node's configuration files. @param {ClusterNode} node */
export function configFiles({ paths }) {
  return {
    containerd: path.join(paths.config, 'containerd.toml'),
    kubelet: path.join(paths.config, 'kubelet.json'),
    kubeProxy: path.join(paths.config, 'kube-proxy.json'),
    cni: path.join(paths.cniConfig, '10-meridian.conflist'),
  };
}

/** containerd 2 (config version 3), alone in the node's state folder beside Docker's own containerd. @param {ClusterNode} node */
function containerdConfig({ paths }) {
  return `version = 3
root = ${JSON.stringify(paths.containerdRoot)}
state = ${JSON.stringify(paths.containerdState)}
# NRI would claim /var/run/nri; nothing here uses it.
disabled_plugins = ['io.containerd.nri.v1.nri']

[grpc]
  address = ${JSON.stringify(paths.containerdSocket)}

[ttrpc]
  address = ${JSON.stringify(`${paths.containerdSocket}.ttrpc`)}

[plugins.'io.containerd.internal.v1.opt']
  path = ${JSON.stringify(path.join(paths.containerdRoot, 'opt'))}

[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.registry]
    # Every registry resolves to a closed port on the node: no pull ever looks up or
    # reaches an outside host (images are imported; a pod naming another fails at once).
    config_path = ${JSON.stringify(paths.registryHosts)}
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    # No registry is reachable: the sandbox image is built here and imported.
    sandbox = ${JSON.stringify(SYSTEM_IMAGES.pause)}

[plugins.'io.containerd.cri.v1.runtime']
  # Pod network namespaces under the state folder, so cluster:down finds them all.
  netns_mounts_under_state_dir = true
  # These machines withhold CAP_SYS_RESOURCE even from root, so no process may lower its
  # OOM score below its parent's: runc would fail to give a sandbox the kubelet's -998.
  # containerd clamps the scores it is asked for to its own instead.
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = [${JSON.stringify(CNI_BIN_DIR)}]
    conf_dir = ${JSON.stringify(paths.cniConfig)}
  [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
    runtime_type = 'io.containerd.runc.v2'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
      BinaryName = ${JSON.stringify(RUNC)}
      # runc's own state beside containerd's, not in /run/containerd where Docker's runc keeps its.
      Root = ${JSON.stringify(path.join(paths.containerdState, 'runc'))}
      # No systemd as PID 1 on these machines: cgroupfs, as the kubelet.
      SystemdCgroup = false
`;
}

/**
 * One bridge for the node's pods (in its network namespace), addresses from host-local
 * in the node's range, forwarding let through, port mappings by portmap.
 * @param {ClusterNode} node
 */
function cniConfig({ podCidr, paths }) {
  return {
    cniVersion: '1.0.0',
    name: 'meridian',
    plugins: [
      {
        type: 'bridge',
        bridge: NETWORK.podBridge,
        isGateway: true,
        // No masquerading: pods talk to each other and to the node, never to the outside.
        ipMasq: false,
        // A pod reaching its own Service, load-balanced back to itself.
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: podCidr }]],
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: paths.cniIpam,
        },
      },
      // A Docker engine on the same machine sets FORWARD's policy to DROP; this accepts
      // the pods' own traffic (pod to Service to pod crosses FORWARD on the bridge).
      { type: 'firewall', backend: 'iptables' },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
}

/** @param {ClusterNode} node */
function kubeletConfig(node) {
  const ca = pkiFiles('ca').cert;
  const serving = pkiFiles(kubeletCertificates(node).serving);
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: ca } },
    authorization: { mode: 'Webhook' },
    address: node.address,
    port: PORTS.kubelet,
    // On the node's address, where cluster:up (in the machine's namespace) reaches every node's.
    healthzBindAddress: node.address,
    healthzPort: PORTS.kubeletHealthz,
    tlsCertFile: serving.cert,
    tlsPrivateKeyFile: serving.key,
    containerRuntimeEndpoint: `unix://${node.paths.containerdSocket}`,
    // No systemd as PID 1: cgroupfs, matching containerd's runc options.
    cgroupDriver: 'cgroupfs',
    // Every node's kubelet runs on this one machine: each keeps its pods under a cgroup of
    // its own (the first node at the root, as a lone node does).
    cgroupRoot: node.cgroupRoot,
    // These machines run cgroup v1 (cgroup2 only at /sys/fs/cgroup/unified), and the
    // machine's own supervisor lives in the v1 memory hierarchy, so it cannot move to
    // v2. Kubernetes 1.35 still runs on v1 when told to; it is why the pin is 1.35.
    failCgroupV1: false,
    // No swap here; kept explicit so a machine with swap does not stop the node.
    failSwapOn: false,
    clusterDomain: NETWORK.clusterDomain,
    clusterDNS: [NETWORK.dnsServiceAddress],
    // The host's resolver is outside the addresses test traffic may reach; pods with
    // dnsPolicy Default get no upstream rather than that one.
    resolvConf: '',
    podLogsDir: node.paths.podLogs,
    // A shared test disk may be fuller than a real node's; evicting test pods for it
    // would fail the run for a reason outside the chart.
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    // Images cannot be pulled again here: never garbage-collect them.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    // The node's certificates come from cluster:up; no CSR rotation.
    rotateCertificates: false,
    serverTLSBootstrap: false,
  };
}

/** @param {ClusterNode} node */
function kubeProxyConfig(node) {
  // The first node shares the machine's namespace: its NodePorts also answer on loopback
  // (tests reach Services at 127.0.0.1:<nodePort>). Every node's answer on its own
  // address; never on the machine's external interface.
  const inMachineNamespace = node.netns === null;
  return {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: kubeconfigPath('kube-proxy') },
    mode: 'iptables',
    hostnameOverride: node.name,
    clusterCIDR: NETWORK.clusterPodCidr,
    bindAddress: node.address,
    healthzBindAddress: `${node.address}:${PORTS.kubeProxyHealthz}`,
    metricsBindAddress: `${node.address}:${PORTS.kubeProxyMetrics}`,
    nodePortAddresses: inMachineNamespace ? ['127.0.0.0/8', `${node.address}/32`] : [`${node.address}/32`],
    iptables: { localhostNodePorts: inMachineNamespace },
    // Leave the machine's conntrack table size and timeouts as they are (as kind does):
    // they are shared with everything else on it.
    conntrack: { maxPerCore: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
}

const json = (/** @type {unknown} */ value) => `${JSON.stringify(value, null, 2)}\n`;

/** containerd's hosts.toml for every registry (`_default`): a closed port on the node's address. @param {ClusterNode} node */
function registryHosts({ address }) {
  return `server = "http://${address}:1"\n[host."http://${address}:1"]\n  capabilities = ["pull", "resolve"]\n`;
}

/** @param {ClusterNode} node */
export function writeConfigFiles(node) {
  const { paths } = node;
  const files = configFiles(node);
  for (const dir of [paths.config, paths.cniConfig, path.join(paths.registryHosts, '_default')]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(paths.registryHosts, '_default', 'hosts.toml'), registryHosts(node));
  writeFileSync(files.containerd, containerdConfig(node));
  writeFileSync(files.cni, json(cniConfig(node)));
  writeFileSync(files.kubelet, json(kubeletConfig(node)));
  writeFileSync(files.kubeProxy, json(kubeProxyConfig(node)));
}
