import { describe, expect, it } from 'vitest';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IHTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute';
import { EVERY_FEATURE_VALUES, find, render, renderError, type KubernetesObject } from '../support/chart';

const WEB_PODS = { 'app.kubernetes.io/name': 'meridian', 'app.kubernetes.io/instance': 'web', 'app.kubernetes.io/component': 'web' };
const serviceOf = (objects: KubernetesObject[], suffix: string) => find(objects, 'Service', suffix) as unknown as IService;

describe('services', () => {
  const objects = render();

  it('serves the site on the Service port, to the http container port only', () => {
    const service = serviceOf(objects, '-meridian');

    expect(service.spec?.type).toBe('ClusterIP');
    expect(service.spec?.selector).toEqual(WEB_PODS);
    expect(service.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  it('serves /metrics from its own ClusterIP Service, so the public one never exposes it', () => {
    const metrics = serviceOf(objects, '-metrics');

    expect(metrics.spec?.type).toBe('ClusterIP');
    expect(metrics.spec?.selector).toEqual(WEB_PODS);
    expect(metrics.spec?.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(metrics.metadata?.labels?.['app.kubernetes.io/component']).toBe('metrics');
  });

  it('keeps the metrics Service ClusterIP when the site’s is a LoadBalancer', () => {
    const withLoadBalancer = render({}, { files: [EVERY_FEATURE_VALUES] });

    expect(serviceOf(withLoadBalancer, '-meridian').spec?.type).toBe('LoadBalancer');
    expect(serviceOf(withLoadBalancer, '-metrics').spec?.type).toBe('ClusterIP');
  });
});

describe('the Service for SREs', () => {
  it('serves on a fixed node port with NodePort, e.g. for a test that reaches 127.0.0.1:<nodePort>', () => {
    const service = serviceOf(render({ service: { type: 'NodePort', nodePort: 30080 } }), '-meridian');

    expect(service.spec?.type).toBe('NodePort');
    expect(service.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', nodePort: 30080 }]);
  });

  it('passes externalTrafficPolicy, loadBalancerSourceRanges, node port and annotations to a LoadBalancer', () => {
    const service = serviceOf(render({}, { files: [EVERY_FEATURE_VALUES] }), '-meridian');

    expect(service.spec).toMatchObject({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      loadBalancerSourceRanges: ['203.0.113.0/24'],
    });
    expect(service.spec?.ports?.[0]?.nodePort).toBe(31080);
    expect(service.metadata?.annotations).toEqual({ 'example.com/lb': 'internal', 'example.com/owner': 'web-team' });
  });

  it('refuses a node port or source ranges the Service type would ignore', () => {
    expect(renderError({ service: { nodePort: 30080 } })).toContain('service.nodePort=30080 needs service.type NodePort or LoadBalancer');
    expect(renderError({ service: { type: 'NodePort', loadBalancerSourceRanges: ['10.0.0.0/8'] } })).toContain(
      'service.loadBalancerSourceRanges needs service.type LoadBalancer',
    );
    expect(renderError({ service: { type: 'NodePort', nodePort: 80 } })).toContain("at '/service/nodePort'");
  });

  it('leaves externalTrafficPolicy out of a ClusterIP Service, where Kubernetes refuses it', () => {
    expect(serviceOf(render({ service: { externalTrafficPolicy: 'Local' } }), '-meridian').spec?.externalTrafficPolicy).toBeUndefined();
  });
});

describe('Gateway API', () => {
  it('has no HTTPRoute by default', () => {
    expect(render().map((object) => object.kind)).not.toContain('HTTPRoute');
  });

  it('routes the hostnames and matches to the Service port, attached to the parent Gateways, with filters', () => {
    const route = find(render({}, { files: [EVERY_FEATURE_VALUES] }), 'HTTPRoute') as unknown as IHTTPRoute;

    expect(route.metadata?.labels?.gateway).toBe('public');
    expect(route.metadata?.annotations).toMatchObject({ 'example.com/route': 'public' });
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }],
      hostnames: ['www.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { add: [{ name: 'X-Served-By', value: 'meridian' }] } }],
          backendRefs: [{ name: 'web-meridian', port: 80 }],
        },
      ],
    });
  });

  it('refuses an HTTPRoute without a parent Gateway, and an unknown key in it', () => {
    expect(renderError({ httpRoute: { enabled: true, parentRefs: [] } })).toContain("at '/httpRoute/parentRefs'");
    expect(renderError({ httpRoute: { enabled: true, hostname: 'x' } })).toContain("additional properties 'hostname' not allowed");
  });
});

describe('ingress', () => {
  it('is off by default', () => {
    expect(render().map((object) => object.kind)).not.toContain('Ingress');
  });

  it('has no example host to route by default, and refuses to render without a host', () => {
    expect(renderError({ ingress: { enabled: true } })).toContain('ingress.enabled needs ingress.hosts');
    expect(find(render({ httpRoute: { enabled: true } }), 'HTTPRoute').spec).not.toHaveProperty('hostnames');
  });

  it('routes its hosts to the http Service port, with class and TLS', () => {
    const ingress = find(render({}, { files: [EVERY_FEATURE_VALUES] }), 'Ingress') as unknown as IIngress;

    expect(ingress.spec?.ingressClassName).toBe('nginx');
    expect(ingress.spec?.tls).toEqual([{ secretName: 'www-example-com-tls', hosts: ['www.example.com'] }]);
    expect(ingress.spec?.rules).toEqual([
      {
        host: 'www.example.com',
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web-meridian', port: { name: 'http' } } } }] },
      },
    ]);
  });

  it('takes a rule without a host: every host the controller receives', () => {
    const paths = [{ path: '/', pathType: 'Prefix' }];
    const ingress = find(render({ ingress: { enabled: true, hosts: [{ paths }] } }), 'Ingress') as unknown as IIngress;

    expect(ingress.spec?.rules).toEqual([
      { http: { paths: [{ ...paths[0], backend: { service: { name: 'web-meridian', port: { name: 'http' } } } }] } },
    ]);
  });
});

describe('network policy', () => {
  const policyOf = (objects: KubernetesObject[]) => find(objects, 'NetworkPolicy', '-meridian') as unknown as INetworkPolicy;
  const ruleFor = (policy: INetworkPolicy, port: string) =>
    policy.spec?.ingress?.find((rule) => rule.ports?.some((entry) => entry.port === port));
  const KUBE_DNS = {
    to: [
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
        podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
      },
    ],
    ports: [
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ],
  };
  /** The release's own pods, on http: browser reports relayed to the pod that issued their token. */
  const RELAY = { to: [{ podSelector: { matchLabels: WEB_PODS } }], ports: [{ port: 'http', protocol: 'TCP' }] };
  const otlpPorts = (app: Record<string, unknown>) =>
    policyOf(render({ networkPolicy: { enabled: true }, app: { otel: app } }))
      .spec?.egress?.slice(2)
      .flatMap((rule) => rule.ports);

  it('is off by default', () => {
    expect(render().map((object) => object.kind)).not.toContain('NetworkPolicy');
  });

  it('lets anyone reach http, only the monitoring namespace reach metrics, and the pods reach only the cluster DNS and one another', () => {
    const policy = policyOf(render({ networkPolicy: { enabled: true } }));

    expect(policy.spec?.podSelector).toEqual({ matchLabels: WEB_PODS });
    expect(policy.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(ruleFor(policy, 'http')?.from).toBeUndefined();
    expect(ruleFor(policy, 'metrics')?.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);
    expect(policy.spec?.ingress).toHaveLength(2);
    expect(policy.spec?.egress).toEqual([KUBE_DNS, RELAY]);
  });

  it('limits http to the listed peers plus the chart’s helm test pod and the release’s own pods, opens metrics to each listed scraper, and adds the extra rules', () => {
    const policy = policyOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(ruleFor(policy, 'http')?.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
      {
        podSelector: {
          matchLabels: { 'app.kubernetes.io/name': 'meridian', 'app.kubernetes.io/instance': 'web', 'app.kubernetes.io/component': 'test' },
        },
      },
      { podSelector: { matchLabels: WEB_PODS } },
    ]);
    expect(ruleFor(policy, 'metrics')?.from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
      },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } },
    ]);
    expect(policy.spec?.ingress?.at(-1)).toEqual({
      from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'synthetic-checker' } } }],
      ports: [{ port: 'http', protocol: 'TCP' }],
    });
    expect(policy.spec?.egress).toEqual([
      KUBE_DNS,
      RELAY,
      {
        ports: [{ port: 4318, protocol: 'TCP' }],
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } }],
      },
      { to: [{ ipBlock: { cidr: '203.0.113.10/32' } }], ports: [{ port: 5432, protocol: 'TCP' }] },
    ]);
  });

  it('lets the helm test pod ask the cluster DNS and reach the web pods’ HTTP port, nothing else, and admits nothing to it', () => {
    const testPod = (values: Record<string, unknown>) =>
      render(values).filter((object) => object.kind === 'NetworkPolicy' && object.metadata.name.endsWith('-test-site'));
    const [policy] = testPod({ networkPolicy: { enabled: true } }) as unknown as INetworkPolicy[];
    const pod = find(render(), 'Pod', '-test-site');

    const testPods = { ...WEB_PODS, 'app.kubernetes.io/component': 'test' };
    expect(policy?.spec?.podSelector).toEqual({ matchLabels: testPods });
    expect(pod.metadata.labels).toMatchObject(testPods);
    expect(policy?.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy?.spec?.ingress).toBeUndefined();
    expect(policy?.spec?.egress).toEqual([
      KUBE_DNS,
      { to: [{ podSelector: { matchLabels: WEB_PODS } }], ports: [{ port: 3000, protocol: 'TCP' }] },
    ]);
    expect(testPod({ networkPolicy: { enabled: true }, helmTest: { enabled: false } })).toEqual([]);
    expect(testPod({})).toEqual([]);
  });

  it("lets traces out on the OTLP endpoints' ports, read from their URLs, and not at all with the SDK off", () => {
    expect(otlpPorts({ exporterOtlpEndpoint: 'http://collector.otel:4318' })).toEqual([{ port: 4318, protocol: 'TCP' }]);
    expect(
      otlpPorts({ exporterOtlpEndpoint: 'http://collector.otel', exporterOtlpTracesEndpoint: 'https://traces.example/v1/traces' }),
    ).toEqual([
      { port: 80, protocol: 'TCP' },
      { port: 443, protocol: 'TCP' },
    ]);
    expect(otlpPorts({ exporterOtlpEndpoint: 'http://a:4318', exporterOtlpTracesEndpoint: 'http://b:4318/v1/traces' })).toEqual([
      { port: 4318, protocol: 'TCP' },
    ]);
    expect(otlpPorts({ exporterOtlpEndpoint: 'http://collector.otel:4318', sdkDisabled: true })).toEqual([]);
  });

  it("reads the port of an IPv6 endpoint after its brackets, and the scheme's port when it names none", () => {
    expect(otlpPorts({ exporterOtlpEndpoint: 'http://[fd00::1]:4318' })).toEqual([{ port: 4318, protocol: 'TCP' }]);
    expect(otlpPorts({ exporterOtlpEndpoint: 'http://[fd00::1]', exporterOtlpTracesEndpoint: 'https://[fd00::2]/v1/traces' })).toEqual([
      { port: 80, protocol: 'TCP' },
      { port: 443, protocol: 'TCP' },
    ]);
  });

  it('refuses a policy that lets no Prometheus scrape while the alert rules are on, and the old single-namespace key', () => {
    // The alert rules' check (alert-targets.test.ts) reads the policy as rendered.
    expect(
      renderError({
        networkPolicy: { enabled: true, metrics: { from: [] } },
        serviceMonitor: { enabled: true },
        prometheusRule: { enabled: true },
      }),
    ).toContain('networkPolicy lets no pod reach the metrics port');
    const admittedByAnExtraRule = { from: [], ports: [{ port: 'metrics', protocol: 'TCP' }] };
    expect(
      render({
        networkPolicy: { enabled: true, metrics: { from: [] }, extraIngress: [admittedByAnExtraRule] },
        serviceMonitor: { enabled: true },
        prometheusRule: { enabled: true },
      }).map((object) => object.kind),
    ).toContain('PrometheusRule');
    expect(ruleFor(policyOf(render({ networkPolicy: { enabled: true, metrics: { from: [] } } })), 'metrics')).toBeUndefined();
    expect(renderError({ networkPolicy: { enabled: true, metrics: { namespace: 'monitoring' } } })).toMatch(/namespace/);
    expect(renderError({ networkPolicy: { enabled: true, egress: { dns: { to: [] } } } })).toMatch(/dns/);
  });
});
