import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHART_DIR, render, renderError } from '../support/chart';

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
    [
      'an OTLP endpoint that is not http(s)',
      { app: { otel: { exporterOtlpEndpoint: 'collector:4318' } } },
      "at '/app/otel/exporterOtlpEndpoint'",
    ],
    [
      'an OTEL variable the chart sets itself',
      { app: { otel: { env: { OTEL_SERVICE_NAME: 'x' } } } },
      "invalid propertyName 'OTEL_SERVICE_NAME'",
    ],
    [
      'a variable in app.otel.env that is not OTEL_*',
      { app: { otel: { env: { NODE_OPTIONS: 'x' } } } },
      "invalid propertyName 'NODE_OPTIONS'",
    ],
    ['maxSurge 0 (with maxUnavailable 0 a rollout could not start)', { rollingUpdate: { maxSurge: 0 } }, "at '/rollingUpdate/maxSurge'"],
    ['minAvailable 100%', { podDisruptionBudget: { minAvailable: '100%' } }, "at '/podDisruptionBudget/minAvailable'"],
    ['a cache dir at /tmp', { app: { cacheDir: '/tmp' } }, "at '/app/cacheDir'"],
    ['an env var without a name', { extraEnv: [{ value: 'x' }] }, "at '/extraEnv/0'"],
    ['a digest that is not sha256', { image: { digest: 'md5:abc' } }, "at '/image/digest'"],
    ['a build id with spaces', { image: { buildId: 'build 42' } }, "at '/image/buildId'"],
    ['an unknown key under image', { image: { tags: 'x' } }, "additional properties 'tags' not allowed"],
    ['a node port outside 30000-32767', { service: { type: 'NodePort', nodePort: 8080 } }, "at '/service/nodePort'"],
    [
      'an unknown externalTrafficPolicy',
      { service: { type: 'NodePort', externalTrafficPolicy: 'Nearest' } },
      "at '/service/externalTrafficPolicy'",
    ],
    [
      'a source range that is not a CIDR',
      { service: { type: 'LoadBalancer', loadBalancerSourceRanges: ['office'] } },
      "at '/service/loadBalancerSourceRanges/0'",
    ],
    ['an unknown key under service', { service: { nodeport: 30080 } }, "additional properties 'nodeport' not allowed"],
    [
      'an HTTPRoute match on an unknown path type',
      { httpRoute: { matches: [{ path: { type: 'Prefix', value: '/' } }] } },
      "at '/httpRoute/matches/0/path/type'",
    ],
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
    ['TRUST_PROXY as a string of digits (read as an address, not hops)', { app: { trustProxy: '101' } }, "at '/app/trustProxy'"],
    ['TRUST_PROXY with a hop count inside a list', { app: { trustProxy: '1, 10.0.0.0/8' } }, "at '/app/trustProxy'"],
    ['an unknown severity key', { prometheusRule: { severities: { info: 'low' } } }, "additional properties 'info' not allowed"],
    ['a pod label value with a space', { podLabels: { team: 'web team' } }, "at '/podLabels/team'"],
    ['a common label value ending in a dash', { commonLabels: { tier: 'front-' } }, "at '/commonLabels/tier'"],
    ['a tag inside image.repository', { image: { repository: 'registry.example.com/meridian:1.2.0' } }, "at '/image/repository'"],
    ['a digest inside image.repository', { image: { repository: `meridian@sha256:${'a'.repeat(64)}` } }, "at '/image/repository'"],
    ["an extra volume named as the chart's /tmp", { extraVolumes: [{ name: 'tmp', emptyDir: {} }] }, "at '/extraVolumes/0/name'"],
    ["an extra volume named as the chart's cache", { extraVolumes: [{ name: 'next-cache', emptyDir: {} }] }, "at '/extraVolumes/0/name'"],
    [
      'an extra volume mount at /tmp',
      { extraVolumeMounts: [{ name: 'scratch', mountPath: '/tmp/' }] },
      "at '/extraVolumeMounts/0/mountPath'",
    ],
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
        replicaCount: 0,
        podLabels: { team: 'web', 'example.com/cost-centre': 'A-1_2.b', empty: '' },
        extraVolumes: [{ name: 'scratch', emptyDir: {} }],
        extraVolumeMounts: [{ name: 'scratch', mountPath: '/tmp/scratch' }],
        ingress: { enabled: true, hosts: [{ paths: [{ path: '/', pathType: 'Prefix' }] }] },
        podDisruptionBudget: { minAvailable: null, maxUnavailable: '50%' },
        image: { tag: 'v1.2.3_rc-4' },
        app: {
          logLevel: 'silent',
          buildPollIntervalMs: 1000,
          shutdownDelayMs: 0,
          shutdownTimeoutMs: 0,
          trustProxy: '10.0.0.0/8, fd00::/8, loopback',
        },
        rollingUpdate: { maxSurge: 1 },
        service: { type: 'NodePort', nodePort: 32767, externalTrafficPolicy: 'Cluster' },
        minReadySeconds: 10,
      }),
    ).not.toThrow();
    for (const repository of [
      'meridian',
      'registry.example.com:5000/team/meridian',
      'ghcr.io/example/meridian_web',
      '198.18.0.1:5000/a.b/c-d',
    ]) {
      expect(() => render({ image: { repository } }), repository).not.toThrow();
    }
  });
});

type SchemaNode = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
};

const schema = JSON.parse(readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8')) as SchemaNode & {
  definitions: Record<string, SchemaNode>;
};
const resolve = (node: SchemaNode): SchemaNode =>
  node.$ref ? (schema.definitions[node.$ref.replace('#/definitions/', '')] as SchemaNode) : node;

/** Every node of the schema under `pointer` (a JSON pointer, `[]` for an array's items), $refs followed. */
function* nodes(node: SchemaNode, pointer = ''): Generator<{ pointer: string; node: SchemaNode }> {
  const resolved = resolve(node);
  yield { pointer, node: resolved };
  for (const [key, child] of Object.entries(resolved.properties ?? {})) yield* nodes(child, `${pointer}/${key}`);
  if (resolved.items) yield* nodes(resolved.items, `${pointer}/[]`);
}

/**
 * Objects handed to Kubernetes, the Gateway API or the Prometheus Operator as they are
 * (the API server checks their fields, for its own version), and `global`, which Helm
 * shares with parent charts.
 */
const OPEN_BY_DESIGN = [
  '/global',
  '/extraEnv/[]/valueFrom',
  '/extraEnvFrom/[]/configMapRef',
  '/extraEnvFrom/[]/secretRef',
  '/podSecurityContext',
  '/securityContext',
  '/extraVolumes/[]',
  '/extraVolumeMounts/[]',
  '/affinity',
  '/initContainers/[]',
  '/sidecars/[]',
  '/tolerations/[]',
  '/httpRoute/filters/[]',
  '/autoscaling/behavior',
  '/networkPolicy/http/from/[]',
  '/networkPolicy/metrics/from/[]',
  '/networkPolicy/extraIngress/[]',
  '/networkPolicy/egress/dns/to/[]',
  '/networkPolicy/egress/dns/ports/[]',
  '/networkPolicy/egress/otlp/to/[]',
  '/networkPolicy/extraEgress/[]',
  '/serviceMonitor/relabelings/[]',
  '/serviceMonitor/metricRelabelings/[]',
  '/alertmanagerConfig/receivers/[]',
].sort();

/** A value of a type the node does not allow. */
function wrongValue(node: SchemaNode): unknown {
  const allowed = [node.type ?? []].flat();
  const typeOf = (value: unknown) =>
    Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
  return [true, 'not-this', 1.5, ['x'], { x: 1 }].find(
    (value) => !allowed.includes(typeOf(value)) && !(typeOf(value) === 'integer' && allowed.includes('number')),
  );
}

describe('values.schema.json, walked', () => {
  const all = [...nodes(schema)];
  const isObject = (node: SchemaNode) => node.type === 'object' || node.properties !== undefined;

  it("closes every object of the chart's own: only Kubernetes pass-throughs and global take any key", () => {
    const open = all.filter(({ node }) => isObject(node) && node.additionalProperties === undefined).map(({ pointer }) => pointer);
    expect(open.sort()).toEqual(OPEN_BY_DESIGN);
  });

  it('refuses an unknown key in every block and a wrong type at every typed value, each named by its path', () => {
    const values: Record<string, unknown> = {};
    const put = (pointer: string, value: unknown) => {
      const keys = pointer.split('/').slice(1);
      let target = values;
      for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
      target[keys.at(-1) as string] = value;
    };
    const reachable = all.filter(({ pointer }) => pointer !== '' && !pointer.includes('[]'));
    const leaves = reachable.filter(({ node }) => !node.properties && node.type !== undefined);
    const blocks = reachable.filter(({ node }) => node.properties && node.additionalProperties === false);
    for (const { pointer, node } of leaves) put(pointer, wrongValue(node));
    for (const { pointer } of blocks) put(`${pointer}/bogusKey`, 1);
    expect(leaves.length).toBeGreaterThan(60);
    expect(blocks.length).toBeGreaterThan(20);

    const message = renderError(values);
    for (const { pointer } of leaves) expect(message, pointer).toContain(`at '${pointer}'`);
    for (const { pointer } of blocks) expect(message, pointer).toContain(`at '${pointer}': additional properties 'bogusKey' not allowed`);
  });
});
