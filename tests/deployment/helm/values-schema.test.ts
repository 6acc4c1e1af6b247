import { describe, expect, it } from 'vitest';
import { render, renderError } from '../support/chart';

describe('values.schema.json', () => {
  it.each([
    ['replicaCount: -1', { replicaCount: -1 }, "at '/replicaCount'"],
    ['replicaCount: "two"', { replicaCount: 'two' }, "at '/replicaCount': got string, want integer"],
    ['image.tag with spaces', { image: { tag: 'build 42' } }, "at '/image/tag'"],
    ['an unknown log level', { app: { logLevel: 'verbose' } }, "at '/app/logLevel'"],
    ['a poll interval of 0', { app: { buildPollIntervalMs: 0 } }, "at '/app/buildPollIntervalMs'"],
    ['a poll interval as a string', { app: { buildPollIntervalMs: '60000' } }, "at '/app/buildPollIntervalMs'"],
    ['a negative shutdown delay', { app: { shutdownDelayMs: -1 } }, "at '/app/shutdownDelayMs'"],
    ['a port out of range', { containerPorts: { http: 70000 } }, "at '/containerPorts/http'"],
    ['an unknown key (a typo)', { replicas: 3 }, "additional properties 'replicas' not allowed"],
    ['an unknown service type', { service: { type: 'Ingress' } }, "at '/service/type'"],
    ['an OTLP endpoint that is not http(s)', { app: { otel: { exporterOtlpEndpoint: 'collector:4318' } } }, "at '/app/otel/exporterOtlpEndpoint'"],
    ['an OTEL variable the chart sets itself', { app: { otel: { env: { OTEL_SERVICE_NAME: 'x' } } } }, "invalid propertyName 'OTEL_SERVICE_NAME'"],
    ['a variable in app.otel.env that is not OTEL_*', { app: { otel: { env: { NODE_OPTIONS: 'x' } } } }, "invalid propertyName 'NODE_OPTIONS'"],
    ['maxSurge 0 (with maxUnavailable 0 a rollout could not start)', { rollingUpdate: { maxSurge: 0 } }, "at '/rollingUpdate/maxSurge'"],
    ['minAvailable 100%', { podDisruptionBudget: { minAvailable: '100%' } }, "at '/podDisruptionBudget/minAvailable'"],
    ['a cache dir at /tmp', { app: { cacheDir: '/tmp' } }, "at '/app/cacheDir'"],
    ['an env var without a name', { extraEnv: [{ value: 'x' }] }, "at '/extraEnv/0'"],
    ['a digest that is not sha256', { image: { digest: 'md5:abc' } }, "at '/image/digest'"],
    ['a build id with spaces', { image: { buildId: 'build 42' } }, "at '/image/buildId'"],
    ['an unknown key under image', { image: { tags: 'x' } }, "additional properties 'tags' not allowed"],
    ['a node port outside 30000-32767', { service: { type: 'NodePort', nodePort: 8080 } }, "at '/service/nodePort'"],
    ['an unknown externalTrafficPolicy', { service: { type: 'NodePort', externalTrafficPolicy: 'Nearest' } }, "at '/service/externalTrafficPolicy'"],
    ['a source range that is not a CIDR', { service: { type: 'LoadBalancer', loadBalancerSourceRanges: ['office'] } }, "at '/service/loadBalancerSourceRanges/0'"],
    ['an unknown key under service', { service: { nodeport: 30080 } }, "additional properties 'nodeport' not allowed"],
    ['an HTTPRoute match on an unknown path type', { httpRoute: { matches: [{ path: { type: 'Prefix', value: '/' } }] } }, "at '/httpRoute/matches/0/path/type'"],
    ['minReadySeconds as a string', { minReadySeconds: '5' }, "at '/minReadySeconds'"],
    ['a negative revisionHistoryLimit', { revisionHistoryLimit: -1 }, "at '/revisionHistoryLimit'"],
    ['an init container without a name', { initContainers: [{ image: 'busybox' }] }, "at '/initContainers/0'"],
    ['a sidecar that is not an object', { sidecars: ['fluent-bit'] }, "at '/sidecars/0'"],
    ['an extra volume mount without a path', { extraVolumeMounts: [{ name: 'x' }] }, "at '/extraVolumeMounts/0'"],
    ['an unknown key under dnsConfig', { dnsConfig: { ndots: 2 } }, "additional properties 'ndots' not allowed"],
    ['a namespaceOverride that is no DNS label', { namespaceOverride: 'Web_Prod' }, "at '/namespaceOverride'"],
    ['commonAnnotations with a number', { commonAnnotations: { 'example.com/n': 1 } }, "at '/commonAnnotations/example.com~1n'"],
    ['a global image registry with a scheme', { global: { imageRegistry: 'https://registry.example.com' } }, "at '/global/imageRegistry'"],
    ['extraManifests that is not a list', { extraManifests: { kind: 'Secret' } }, "at '/extraManifests'"],
    ['TRUST_PROXY true', { app: { trustProxy: true } }, "at '/app/trustProxy'"],
    ['an unknown severity key', { prometheusRule: { severities: { info: 'low' } } }, "additional properties 'info' not allowed"],
    ['alert labels that are not strings', { prometheusRule: { alertLabels: { tier: 1 } } }, "at '/prometheusRule/alertLabels/tier'"],
  ])('rejects %s', (_label, values, expected) => {
    const message = renderError(values);

    expect(message).toContain("values don't meet the specifications of the schema");
    expect(message).toContain(expected);
  });

  it('refuses a digits-only tag that --set turned into a number; --set-string keeps it a tag', () => {
    expect(renderError({}, { args: ['--set', 'image.tag=1234567'] })).toContain("at '/image/tag': got number, want string");
    expect(() => render({}, { args: ['--set-string', 'image.tag=1234567'] })).not.toThrow();
  });

  it('accepts every value in its documented range', () => {
    expect(() =>
      render({
        replicaCount: 1,
        podDisruptionBudget: { minAvailable: null, maxUnavailable: '50%' },
        image: { tag: 'v1.2.3_rc-4' },
        app: { logLevel: 'silent', buildPollIntervalMs: 1000, shutdownDelayMs: 0, shutdownTimeoutMs: 0, trustProxy: '10.0.0.0/8, fd00::/8, loopback' },
        rollingUpdate: { maxSurge: 1 },
        service: { type: 'NodePort', nodePort: 32767, externalTrafficPolicy: 'Cluster' },
        minReadySeconds: 10,
      }),
    ).not.toThrow();
  });
});
