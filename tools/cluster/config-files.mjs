// The configuration files of containerd, the CNI network, the kubelet and kube-proxy.
// Each non-default setting carries the reason this machine needs it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CNI_BIN_DIR, NETWORK, NODE_NAME, PATHS, PORTS, RUNC, SYSTEM_IMAGES } from './layout.mjs';
import { kubeconfigPath } from './kubeconfig.mjs';
import { pkiFiles } from './pki.mjs';

export const CONFIG_FILES = {
  containerd: path.join(PATHS.config, 'containerd.toml'),
  kubelet: path.join(PATHS.config, 'kubelet.json'),
  kubeProxy: path.join(PATHS.config, 'kube-proxy.json'),
  cni: path.join(PATHS.cniConfig, '10-meridian.conflist'),
};

/** containerd 2 (config version 3), alone in the state folder beside Docker's own containerd. */
function containerdConfig() {
  return `version = 3
root = ${JSON.stringify(PATHS.containerdRoot)}
state = ${JSON.stringify(PATHS.containerdState)}
# NRI would claim /var/run/nri; nothing here uses it.
disabled_plugins = ['io.containerd.nri.v1.nri']

[grpc]
  address = ${JSON.stringify(PATHS.containerdSocket)}

[ttrpc]
  address = ${JSON.stringify(`${PATHS.containerdSocket}.ttrpc`)}

[plugins.'io.containerd.internal.v1.opt']
  path = ${JSON.stringify(path.join(PATHS.containerdRoot, 'opt'))}

[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.registry]
    # Every registry resolves to a closed port on the node: no pull ever looks up or
    # reaches an outside host (images are imported; a pod naming another fails at once).
    config_path = ${JSON.stringify(PATHS.registryHosts)}
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
    conf_dir = ${JSON.stringify(PATHS.cniConfig)}
  [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
    runtime_type = 'io.containerd.runc.v2'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
      BinaryName = ${JSON.stringify(RUNC)}
      # runc's own state beside containerd's, not in /run/containerd where Docker's runc keeps its.
      Root = ${JSON.stringify(path.join(PATHS.containerdState, 'runc'))}
      # No systemd as PID 1 on these machines: cgroupfs, as the kubelet.
      SystemdCgroup = false
`;
}

/** One bridge for the pods, addresses from host-local, forwarding let through, port mappings by portmap. */
function cniConfig() {
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
          ranges: [[{ subnet: NETWORK.podCidr }]],
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: PATHS.cniIpam,
        },
      },
      // A Docker engine on the same machine sets FORWARD's policy to DROP; this accepts
      // the pods' own traffic (pod to Service to pod crosses FORWARD on the bridge).
      { type: 'firewall', backend: 'iptables' },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
}

function kubeletConfig() {
  const ca = pkiFiles('ca').cert;
  const serving = pkiFiles('kubelet-server');
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: ca } },
    authorization: { mode: 'Webhook' },
    address: NETWORK.nodeAddress,
    port: PORTS.kubelet,
    healthzBindAddress: '127.0.0.1',
    healthzPort: PORTS.kubeletHealthz,
    tlsCertFile: serving.cert,
    tlsPrivateKeyFile: serving.key,
    containerRuntimeEndpoint: `unix://${PATHS.containerdSocket}`,
    // No systemd as PID 1: cgroupfs, matching containerd's runc options.
    cgroupDriver: 'cgroupfs',
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
    podLogsDir: PATHS.podLogs,
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

function kubeProxyConfig() {
  return {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: kubeconfigPath('kube-proxy') },
    mode: 'iptables',
    hostnameOverride: NODE_NAME,
    clusterCIDR: NETWORK.podCidr,
    bindAddress: '127.0.0.1',
    healthzBindAddress: `127.0.0.1:${PORTS.kubeProxyHealthz}`,
    metricsBindAddress: `127.0.0.1:${PORTS.kubeProxyMetrics}`,
    // NodePorts answer on loopback (tests reach Services at 127.0.0.1:<nodePort>) and
    // on the node's own bridge address; never on the machine's external interface.
    nodePortAddresses: ['127.0.0.0/8', `${NETWORK.nodeAddress}/32`],
    iptables: { localhostNodePorts: true },
    // Leave the machine's conntrack table size and timeouts as they are (as kind does):
    // they are shared with everything else on it.
    conntrack: { maxPerCore: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  };
}

const json = (/** @type {unknown} */ value) => `${JSON.stringify(value, null, 2)}\n`;

/** containerd's hosts.toml for every registry (`_default`): a closed port on the node's address. */
function registryHosts() {
  return `server = "http://${NETWORK.nodeAddress}:1"\n[host."http://${NETWORK.nodeAddress}:1"]\n  capabilities = ["pull", "resolve"]\n`;
}

export function writeConfigFiles() {
  for (const dir of [PATHS.config, PATHS.cniConfig, path.join(PATHS.registryHosts, '_default')]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(PATHS.registryHosts, '_default', 'hosts.toml'), registryHosts());
  writeFileSync(CONFIG_FILES.containerd, containerdConfig());
  writeFileSync(CONFIG_FILES.cni, json(cniConfig()));
  writeFileSync(CONFIG_FILES.kubelet, json(kubeletConfig()));
  writeFileSync(CONFIG_FILES.kubeProxy, json(kubeProxyConfig()));
}
