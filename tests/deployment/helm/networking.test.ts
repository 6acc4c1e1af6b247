import { describe, expect, it } from 'vitest';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import { EVERY_FEATURE_VALUES, find, render, type KubernetesObject } from '../support/chart';

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

describe('ingress', () => {
  it('is off by default', () => {
    expect(render().map((object) => object.kind)).not.toContain('Ingress');
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
});

describe('network policy', () => {
  const policyOf = (objects: KubernetesObject[]) => find(objects, 'NetworkPolicy') as unknown as INetworkPolicy;
  const ruleFor = (policy: INetworkPolicy, port: string) => policy.spec?.ingress?.find((rule) => rule.ports?.some((entry) => entry.port === port));

  it('is off by default', () => {
    expect(render().map((object) => object.kind)).not.toContain('NetworkPolicy');
  });

  it('lets anyone reach http when no peers are listed, and only the monitoring namespace reach metrics', () => {
    const policy = policyOf(render({ networkPolicy: { enabled: true } }));

    expect(policy.spec?.podSelector).toEqual({ matchLabels: WEB_PODS });
    expect(policy.spec?.policyTypes).toEqual(['Ingress']);
    expect(ruleFor(policy, 'http')?.from).toBeUndefined();
    expect(ruleFor(policy, 'metrics')?.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    expect(policy.spec?.ingress).toHaveLength(2);
  });

  it('limits http to the listed peers, plus the chart’s helm test pod', () => {
    const policy = policyOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(ruleFor(policy, 'http')?.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'meridian', 'app.kubernetes.io/instance': 'web', 'app.kubernetes.io/component': 'test' } } },
    ]);
    expect(ruleFor(policy, 'metrics')?.from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
      },
    ]);
  });
});
