import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import { NETWORK, PORTS } from '../../tools/cluster/layout.mjs';
import { deployRelease, localClusterValues, testRelease, writeValuesFile } from '../../tools/cluster/release.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';
import { installBuildA, webPods } from './support/releases';
import { applyAndWait, probe, probePod, type ProbeSite } from './support/network-probes';

// The chart's NetworkPolicy, enforced by kube-router's policy controller, in a namespace
// whose own default is to deny everything both ways. Each peer is a pod of its own
// namespace: the ingress controller's (edge), Prometheus's (monitoring: the tests' own
// Prometheus runs on the host, so a pod there fetching /metrics stands in for its scrape),
// a stranger's, and the trace collector's.
const WEB = { release: 'meridian', namespace: 'np-web' };
const NAMESPACES = { edge: 'np-edge', monitoring: 'np-monitoring', other: 'np-other', otel: 'np-otel' };
const NODE_PORT = 30085;
const byName = (namespace: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } });

const OTLP_ENDPOINT = `http://collector.${NAMESPACES.otel}.svc.${NETWORK.clusterDomain}:4318`;
const APP = `http://meridian.${WEB.namespace}.svc.${NETWORK.clusterDomain}/readyz`;
const METRICS = `http://meridian-metrics.${WEB.namespace}.svc.${NETWORK.clusterDomain}:9464/metrics`;

const values = (networkPolicyEnabled: boolean) =>
  localClusterValues(NODE_PORT, {
    // Two pods: one reaches the other, as the pods relay browser reports.
    replicaCount: 2,
    app: { ...localClusterValues(NODE_PORT).app, otel: { exporterOtlpEndpoint: OTLP_ENDPOINT } },
    networkPolicy: {
      enabled: networkPolicyEnabled,
      http: { from: [byName(NAMESPACES.edge)] },
      metrics: { from: [byName(NAMESPACES.monitoring)] },
      egress: { otlp: { to: [byName(NAMESPACES.otel)] } },
    },
  });

const DEFAULT_DENY = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'default-deny', namespace: WEB.namespace },
  spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
};

const COLLECTOR_SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'collector', namespace: NAMESPACES.otel },
  spec: {
    selector: { app: 'collector' },
    ports: [
      { name: 'otlp-http', port: 4318 },
      { name: 'other', port: 9999 },
    ],
  },
};

const site = (namespace: string, pod: string): ProbeSite => ({ namespace, pod });
const REFUSED = expect.stringMatching(/^error /);

/** Every path the test looks at, and what each saw; `peer` the address of the release's other pod. */
async function observe(app: ProbeSite, peer: string) {
  const edge = site(NAMESPACES.edge, 'edge');
  const scraper = site(NAMESPACES.monitoring, 'scraper');
  const stranger = site(NAMESPACES.other, 'stranger');
  const nodePort = await fetch(`http://127.0.0.1:${NODE_PORT}/readyz`, { signal: AbortSignal.timeout(4000) }).then(
    (response) => `status ${response.status}`,
    (error: Error) => `error ${error.name}`,
  );
  return {
    'the NodePort, from this machine': nodePort,
    'the Service, from the edge namespace': await probe(edge, 'http', APP),
    'the metrics port, from the monitoring namespace': await probe(scraper, 'http', METRICS),
    'the Service, from another namespace': await probe(stranger, 'http', APP),
    'the metrics port, from another namespace': await probe(stranger, 'http', METRICS),
    'the pod: DNS': await probe(app, 'dns', `collector.${NAMESPACES.otel}.svc.${NETWORK.clusterDomain}`),
    'the pod: the OTLP endpoint': await probe(app, 'http', `${OTLP_ENDPOINT}/`),
    'the pod: another port of that host': await probe(
      app,
      'http',
      `http://collector.${NAMESPACES.otel}.svc.${NETWORK.clusterDomain}:9999/`,
    ),
    'the pod: the API server on the node': await probe(app, 'tcp', `${NETWORK.nodeAddress}:${PORTS.apiServer}`),
    // Where the pods relay browser reports to the pod that issued their page-view token.
    'the pod: its release’s other pod': await probe(app, 'http', `http://${peer}:3000/readyz`),
  };
}

/** Polls until what the paths see is `expected` (policies take a moment to apply), then asserts it. */
async function expectPaths(app: ProbeSite, peer: string, expected: Record<string, unknown>) {
  let seen: Awaited<ReturnType<typeof observe>> | undefined;
  const settled = await waitFor(
    'the paths to settle',
    async () => {
      seen = await observe(app, peer);
      expect(seen).toEqual(expected);
    },
    { timeoutMs: 60_000, intervalMs: 1000 },
  ).then(
    () => null,
    (error: Error) => error,
  );
  // What the paths saw last, against what they should; or why they could not be looked at.
  if (!seen) throw settled ?? new Error('network policy: no observation');
  expect(seen).toEqual(expected);
}

describe('the chart’s NetworkPolicy, enforced by kube-router in a default-deny namespace', () => {
  let release: Awaited<ReturnType<typeof installBuildA>> | undefined;
  let app: ProbeSite;
  let peer: string;

  beforeAll(async () => {
    for (const namespace of [WEB.namespace, ...Object.values(NAMESPACES)])
      await kubectl(['create', 'namespace', namespace, '--dry-run=client', '-o', 'json']).then(({ stdout }) =>
        kubectl(['apply', '-f', '-'], { input: stdout }),
      );
    await kubectl(['apply', '-f', '-'], { input: JSON.stringify(DEFAULT_DENY) });
    await applyAndWait([
      probePod(NAMESPACES.edge, 'edge'),
      probePod(NAMESPACES.monitoring, 'scraper'),
      probePod(NAMESPACES.other, 'stranger'),
      probePod(NAMESPACES.otel, 'collector', { 4318: 'otlp', 9999: 'other' }),
      COLLECTOR_SERVICE,
    ]);
    release = await installBuildA(WEB, NODE_PORT, values(true));
    const [pod, other] = await webPods(WEB);
    if (!pod || !other?.status.podIP) throw new Error('network policy: the release has not two pods with addresses');
    app = { namespace: WEB.namespace, pod: pod.metadata.name, container: 'meridian' };
    peer = other.status.podIP;
  });

  afterAll(async () => {
    await release?.remove();
    await kubectl(['delete', 'namespace', ...Object.values(NAMESPACES), '--ignore-not-found', '--timeout=180s']);
  });

  test('with the policy on: the site answers its peers, metrics only the monitoring namespace, and the pod reaches only DNS, the OTLP endpoint and its release’s pods', async () => {
    await expectPaths(app, peer, {
      'the NodePort, from this machine': 'status 200',
      'the Service, from the edge namespace': 'status 200',
      'the metrics port, from the monitoring namespace': 'status 200',
      'the Service, from another namespace': REFUSED,
      'the metrics port, from another namespace': REFUSED,
      'the pod: DNS': expect.stringMatching(/^address 198\.18\.128\.\d+$/),
      'the pod: the OTLP endpoint': 'status 200',
      'the pod: another port of that host': REFUSED,
      'the pod: the API server on the node': REFUSED,
      'the pod: its release’s other pod': 'status 200',
    });
  });

  test("with the policy on, the app's own traces reach the collector", async () => {
    // A page served is a span; the app's exporter sends it within its batch delay.
    await probe(site(NAMESPACES.edge, 'edge'), 'http', APP.replace('/readyz', '/ja'));
    await waitFor(
      'a trace export in the collector’s log',
      async () => {
        const { stdout } = await kubectl(['logs', '-n', NAMESPACES.otel, 'collector']);
        if (!stdout.includes('POST /v1/traces')) throw new Error(`its log: ${stdout.slice(-500) || '(empty)'}`);
      },
      { timeoutMs: 60_000, intervalMs: 2000 },
    );
  });

  test('with the policy on, helm test passes: its own policy lets its pod ask the DNS and reach the site, which admits it', async () => {
    const { stdout } = await testRelease(WEB);
    expect(stdout).toMatch(/Phase:\s+Succeeded/);
  });

  test('without the test pod’s own policy the namespace’s default deny fails helm test, and an upgrade brings the policy back', async () => {
    const testPod = `${WEB.release}-test-site`;
    await kubectl(['delete', 'networkpolicy', '-n', WEB.namespace, testPod]);
    // Tried again while the policy controller may still hold the deleted policy's rules.
    await waitFor(
      'helm test to fail',
      async () => {
        if (
          await testRelease(WEB).then(
            () => true,
            () => false,
          )
        )
          throw new Error('helm test passed');
      },
      { timeoutMs: 120_000, intervalMs: 2000 },
    );
    const { stdout: log } = await kubectl(['logs', '-n', WEB.namespace, testPod]);
    expect(log).toMatch(/helm test failed: /);

    await deployRelease({ ...WEB, valuesFile: release?.valuesFile ?? '', tag: CLUSTER_BUILDS.a });
    await kubectl(['get', 'networkpolicy', '-n', WEB.namespace, testPod]);
    const { stdout } = await testRelease(WEB);
    expect(stdout).toMatch(/Phase:\s+Succeeded/);
  });

  test('with the policy off (and the namespace’s default deny gone): every path is open', async () => {
    const valuesFile = release?.valuesFile ?? '';
    writeValuesFile(valuesFile, values(false));
    await deployRelease({ ...WEB, valuesFile, tag: CLUSTER_BUILDS.a });
    await kubectl(['delete', 'networkpolicy', '-n', WEB.namespace, 'default-deny']);
    const { stdout } = await kubectl(['get', 'networkpolicies', '-n', WEB.namespace, '-o', 'name']);
    expect(stdout.trim()).toBe('');
    await expectPaths(app, peer, {
      'the NodePort, from this machine': 'status 200',
      'the Service, from the edge namespace': 'status 200',
      'the metrics port, from the monitoring namespace': 'status 200',
      'the Service, from another namespace': 'status 200',
      'the metrics port, from another namespace': 'status 200',
      'the pod: DNS': expect.stringMatching(/^address 198\.18\.128\.\d+$/),
      'the pod: the OTLP endpoint': 'status 200',
      'the pod: another port of that host': 'status 200',
      'the pod: the API server on the node': 'connected',
      'the pod: its release’s other pod': 'status 200',
    });
  });
});
