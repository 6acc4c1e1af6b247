// The cluster's add-ons, applied with kubectl like any workload: CoreDNS as the kube-dns
// Service at the address every kubelet hands its pods, and the role of kube-router's
// policy controller (a host process, identified by its client certificate).
import { NETWORK, SYSTEM_IMAGES } from './layout.mjs';

// No `forward`: the machine's resolver is outside the addresses test traffic may
// reach, so names outside the cluster are refused rather than sent on.
const COREFILE = `.:53 {
    errors
    health :8080
    ready :8181
    kubernetes ${NETWORK.clusterDomain} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
    reload
    loadbalance
}
`;

const labels = { 'k8s-app': 'kube-dns' };
const metadata = (/** @type {string} */ name) => ({ name, namespace: 'kube-system', labels });

/** The CoreDNS objects, as one List for `kubectl apply -f -`. */
export function dnsManifest() {
  const items = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata('coredns') },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns', labels },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata('coredns'), data: { Corefile: COREFILE } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: metadata('coredns'),
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'coredns',
            priorityClassName: 'system-cluster-critical',
            // CoreDNS must not ask itself.
            dnsPolicy: 'Default',
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 65534,
              runAsGroup: 65534,
              seccompProfile: { type: 'RuntimeDefault' },
              // Port 53 as a user with no capability (a safe sysctl, per pod): DNS pods listen
              // where clusters' pods do, so NetworkPolicies written for port 53 hold here too.
              sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '53' }],
            },
            containers: [
              {
                name: 'coredns',
                image: SYSTEM_IMAGES.coredns,
                // Built and imported by cluster:up; there is no registry to pull from.
                imagePullPolicy: 'Never',
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: 53, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                ],
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                livenessProbe: { httpGet: { path: '/health', port: 8080 }, initialDelaySeconds: 10 },
                resources: { requests: { cpu: '50m', memory: '40Mi' }, limits: { memory: '120Mi' } },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: 'coredns' } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: metadata('kube-dns'),
      spec: {
        selector: labels,
        clusterIP: NETWORK.dnsServiceAddress,
        ports: [
          { name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, targetPort: 'dns-tcp', protocol: 'TCP' },
        ],
      },
    },
  ];
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

/** The user name in kube-router's client certificate (pki.mjs). */
const POLICY_CONTROLLER_USER = 'meridian:kube-router';

/** What kube-router's policy controller reads (its informers watch all of these), as one List. */
export function policyControllerRbacManifest() {
  const name = 'meridian:kube-router';
  const read = ['get', 'list', 'watch'];
  const items = [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [
        { apiGroups: [''], resources: ['namespaces', 'pods', 'services', 'nodes', 'endpoints'], verbs: read },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: read },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: read },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: POLICY_CONTROLLER_USER }],
    },
  ];
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}
