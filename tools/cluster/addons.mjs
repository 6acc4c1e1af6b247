// The cluster's DNS: CoreDNS as the kube-dns Service at the address every kubelet
// hands its pods. Applied with kubectl like any workload.
import { NETWORK, SYSTEM_IMAGES } from './layout.mjs';

// No `forward`: the machine's resolver is outside the addresses test traffic may
// reach, so names outside the cluster are refused rather than sent on.
const COREFILE = `.:1053 {
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
const metadata = (name) => ({ name, namespace: 'kube-system', labels });

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
            securityContext: { runAsNonRoot: true, runAsUser: 65534, runAsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: 'coredns',
                image: SYSTEM_IMAGES.coredns,
                // Built and imported by cluster:up; there is no registry to pull from.
                imagePullPolicy: 'Never',
                args: ['-conf', '/etc/coredns/Corefile'],
                // 1053 rather than 53: no capability needed to bind it; the Service maps 53 to it.
                ports: [
                  { name: 'dns', containerPort: 1053, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 1053, protocol: 'TCP' },
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
          { name: 'dns', port: 53, targetPort: 1053, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, targetPort: 1053, protocol: 'TCP' },
        ],
      },
    },
  ];
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}
