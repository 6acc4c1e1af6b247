// The cluster's components, in start order, each with its flags in view and a
// comment for every one that is not a default (the spirit of "Kubernetes the Hard Way").
import path from 'node:path';
import { builtBinary } from '../cluster-binaries.mjs';
import { configFiles } from './config-files.mjs';
import { kubeconfigPath } from './kubeconfig.mjs';
import { NETWORK, NODE_NAME, PATHS, PORTS } from './layout.mjs';
import { FRONT_PROXY, kubeletCertificates, pkiFiles } from './pki.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

const ca = () => pkiFiles('ca').cert;

/** The control plane's components in start order, on the first node. */
const CONTROL_PLANE = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
/** Every node's own components in start order. */
export const NODE_COMPONENTS = ['containerd', 'kubelet', 'kube-proxy', 'kube-router'];

/**
 * The process name of a node's component: the first node's keep their plain names.
 * @param {string} component @param {ClusterNode} node
 */
export function componentName(component, { index, name }) {
  return index === 0 ? component : `${component}@${name}`;
}

/**
 * Every component's process name in start order (the control plane, then each node's);
 * cluster:down stops them in the reverse one.
 * @param {ClusterNode[]} nodes
 */
export function componentNames(nodes) {
  return [...CONTROL_PLANE, ...nodes.flatMap((node) => NODE_COMPONENTS.map((component) => componentName(component, node)))];
}

const flags = (/** @type {Record<string, string | number>} */ entries) =>
  Object.entries(entries).map(([name, value]) => `--${name}=${value}`);

/**
 * @typedef {{ name: string, binary: string, args: string[], env?: Record<string, string>, afterNodeReady?: true, health: { url: string, admin?: boolean } | { command: string[] } }} Component
 * @param {Record<string, string>} binaries by name (tools/cluster-binaries.mjs)
 * @returns {Component[]}
 */
export function controlPlaneComponents(binaries) {
  const bin = (/** @type {string} */ name) => builtBinary(binaries, name);
  const etcdServer = pkiFiles('etcd-server');
  const etcdClient = pkiFiles('apiserver-etcd-client');
  const apiServer = pkiFiles('apiserver');
  const kubeletClient = pkiFiles('apiserver-kubelet-client');
  const frontProxyClient = pkiFiles(FRONT_PROXY.client);
  return [
    {
      name: 'etcd',
      binary: bin('etcd'),
      args: flags({
        name: NODE_NAME,
        'data-dir': PATHS.etcdData,
        // Clients (the API server alone) on loopback, over TLS with client certificates.
        'listen-client-urls': `https://127.0.0.1:${PORTS.etcdClient}`,
        'advertise-client-urls': `https://127.0.0.1:${PORTS.etcdClient}`,
        'cert-file': etcdServer.cert,
        'key-file': etcdServer.key,
        'client-cert-auth': 'true',
        'trusted-ca-file': ca(),
        // One member: the peer port only has to exist, on loopback.
        'listen-peer-urls': `http://127.0.0.1:${PORTS.etcdPeer}`,
        'initial-advertise-peer-urls': `http://127.0.0.1:${PORTS.etcdPeer}`,
        'initial-cluster': `${NODE_NAME}=http://127.0.0.1:${PORTS.etcdPeer}`,
        // Plain-HTTP /health for the readiness wait.
        'listen-metrics-urls': `http://127.0.0.1:${PORTS.etcdHealth}`,
      }),
      health: { url: `http://127.0.0.1:${PORTS.etcdHealth}/health` },
    },
    {
      name: 'kube-apiserver',
      binary: bin('kube-apiserver'),
      args: flags({
        'etcd-servers': `https://127.0.0.1:${PORTS.etcdClient}`,
        'etcd-cafile': ca(),
        'etcd-certfile': etcdClient.cert,
        'etcd-keyfile': etcdClient.key,
        // Only on the node's bridge address: never on the machine's external interface.
        'bind-address': NETWORK.nodeAddress,
        'advertise-address': NETWORK.nodeAddress,
        'secure-port': PORTS.apiServer,
        'service-cluster-ip-range': NETWORK.serviceCidr,
        'client-ca-file': ca(),
        'tls-cert-file': apiServer.cert,
        'tls-private-key-file': apiServer.key,
        'kubelet-client-certificate': kubeletClient.cert,
        'kubelet-client-key': kubeletClient.key,
        'kubelet-certificate-authority': ca(),
        // The node has no resolvable host name; its InternalIP is the bridge address.
        'kubelet-preferred-address-types': 'InternalIP',
        'service-account-issuer': `https://kubernetes.default.svc.${NETWORK.clusterDomain}`,
        'service-account-key-file': path.join(PATHS.pki, 'service-account.pub'),
        'service-account-signing-key-file': pkiFiles('service-account').key,
        'authorization-mode': 'Node,RBAC',
        // PodSecurity is on by default; NodeRestriction keeps the kubelet to its own node.
        'enable-admission-plugins': 'NodeRestriction',
        // The aggregation layer (metrics-server's API): the API server passes requests on as the
        // front proxy, naming their user in these headers, which the extension trusts from it alone.
        'requestheader-client-ca-file': pkiFiles(FRONT_PROXY.ca).cert,
        'requestheader-allowed-names': FRONT_PROXY.client,
        'requestheader-username-headers': 'X-Remote-User',
        'requestheader-group-headers': 'X-Remote-Group',
        'requestheader-extra-headers-prefix': 'X-Remote-Extra-',
        'proxy-client-cert-file': frontProxyClient.cert,
        'proxy-client-key-file': frontProxyClient.key,
      }),
      health: { url: `https://${NETWORK.nodeAddress}:${PORTS.apiServer}/readyz`, admin: true },
    },
    {
      name: 'kube-controller-manager',
      binary: bin('kube-controller-manager'),
      args: flags({
        kubeconfig: kubeconfigPath('controller-manager'),
        'authentication-kubeconfig': kubeconfigPath('controller-manager'),
        'authorization-kubeconfig': kubeconfigPath('controller-manager'),
        'bind-address': '127.0.0.1',
        'service-account-private-key-file': pkiFiles('service-account').key,
        // Published into every namespace (kube-root-ca.crt) for pods talking to the API.
        'root-ca-file': ca(),
        'use-service-account-credentials': 'true',
        'service-cluster-ip-range': NETWORK.serviceCidr,
        // A single instance: nothing to elect.
        'leader-elect': 'false',
      }),
      health: { url: `https://127.0.0.1:${PORTS.controllerManager}/healthz` },
    },
    {
      name: 'kube-scheduler',
      binary: bin('kube-scheduler'),
      args: flags({
        kubeconfig: kubeconfigPath('scheduler'),
        'authentication-kubeconfig': kubeconfigPath('scheduler'),
        'authorization-kubeconfig': kubeconfigPath('scheduler'),
        'bind-address': '127.0.0.1',
        'leader-elect': 'false',
      }),
      health: { url: `https://127.0.0.1:${PORTS.scheduler}/healthz` },
    },
  ];
}

/**
 * A node's components (containerd, the kubelet, kube-proxy, kube-router) in start order.
 * Those of a node with a network namespace of its own run in it (`nsenter --net`, so
 * they share the machine's mounts, where the kubelet and containerd meet); its
 * kube-router's chains are looked for there too.
 * @param {Record<string, string>} binaries by name (tools/cluster-binaries.mjs)
 * @param {ClusterNode} node
 * @returns {Component[]}
 */
export function nodeComponents(binaries, node) {
  const bin = (/** @type {string} */ name) => builtBinary(binaries, name);
  const files = configFiles(node);
  const inNamespace = (/** @type {string[]} */ command) =>
    node.netns ? ['nsenter', `--net=/run/netns/${node.netns}`, '--', ...command] : command;
  /** @type {Component[]} */
  const list = [
    {
      name: 'containerd',
      binary: bin('containerd'),
      args: flags({ config: files.containerd }),
      // Our shim first on its PATH, before any Docker's containerd left in /usr/bin.
      env: { PATH: `${path.dirname(bin('containerd-shim-runc-v2'))}:${process.env.PATH}` },
      health: { command: [bin('ctr'), '--address', node.paths.containerdSocket, 'version'] },
    },
    {
      name: 'kubelet',
      binary: bin('kubelet'),
      args: flags({
        config: files.kubelet,
        kubeconfig: kubeconfigPath(kubeletCertificates(node).client),
        'root-dir': node.paths.kubeletRoot,
        'hostname-override': node.name,
        'node-ip': node.address,
        // A kubelet may set labels under topology.kubernetes.io/ on its own Node (NodeRestriction allows it).
        'node-labels': `topology.kubernetes.io/zone=${node.zone}`,
      }),
      health: { url: `http://${node.address}:${PORTS.kubeletHealthz}/healthz` },
    },
    {
      name: 'kube-proxy',
      binary: bin('kube-proxy'),
      args: flags({ config: files.kubeProxy }),
      health: { url: `http://${node.address}:${PORTS.kubeProxyHealthz}/livez` },
    },
    {
      // NetworkPolicy, enforced with iptables and ipset; a host process like kube-proxy,
      // as every component here, with the identity and role cluster:up gives it.
      name: 'kube-router',
      binary: bin('kube-router'),
      args: flags({
        kubeconfig: kubeconfigPath('kube-router'),
        // Its policy controller alone: the bridge CNI routes the pods and kube-proxy serves
        // the Services; no BGP, no IPVS.
        'run-router': 'false',
        'run-service-proxy': 'false',
        'run-firewall': 'true',
        // The node whose pods it guards, by the kubelet's name for it (the machine's host name is not).
        'hostname-override': node.name,
        // Traffic to Service addresses is let through its INPUT chain; policies apply once
        // kube-proxy has translated it to a pod.
        'service-cluster-ip-range': NETWORK.serviceCidr,
        // Its health server would listen on every interface, the external one included;
        // readiness is its chains being in place (below).
        'health-port': '0',
      }),
      // It reads its node's address from the Node object, which the kubelet registers.
      afterNodeReady: true,
      health: { command: inNamespace(['iptables', '-t', 'filter', '-n', '-L', 'KUBE-ROUTER-FORWARD']) },
    },
  ];
  return list.map((component) => {
    const [binary = '', ...args] = inNamespace([component.binary, ...component.args]);
    return { ...component, name: componentName(component.name, node), binary, args };
  });
}

/** Every component's kubeconfig identity but the kubelets' (one per node): its client certificate's name. */
export const KUBECONFIG_IDENTITIES = ['admin', 'controller-manager', 'scheduler', 'kube-proxy', 'kube-router'];
