import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, kinds, render } from '../support/chart';
import { unknownFields } from '../support/kubernetes-fields';
import { schemaViolations } from '../support/kubernetes-schemas';

describe('rendered manifests against the Kubernetes OpenAPI schemas', () => {
  it('renders the base objects with the default values, each valid', () => {
    const objects = render();

    // The Secret holds the page-view token key.
    expect(kinds(objects)).toEqual([
      'ConfigMap',
      'Deployment',
      'Pod',
      'PodDisruptionBudget',
      'Secret',
      'Service',
      'Service',
      'ServiceAccount',
    ]);
    expect(objects.flatMap(schemaViolations)).toEqual([]);
  });

  it('renders every optional object with every feature on, each valid (CRDs against the Prometheus Operator and Gateway API schemas)', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });

    expect(kinds(objects)).toEqual([
      'ConfigMap',
      'ConfigMap',
      'ConfigMap',
      'Deployment',
      'HTTPRoute',
      'HorizontalPodAutoscaler',
      'Ingress',
      'NetworkPolicy',
      // The helm test pod's.
      'NetworkPolicy',
      'Pod',
      'PodDisruptionBudget',
      'PrometheusRule',
      'Secret',
      // The page-view token key's.
      'Secret',
      'Service',
      'Service',
      'ServiceAccount',
      'ServiceMonitor',
    ]);
    expect(objects.flatMap(schemaViolations)).toEqual([]);
  });

  it.each([
    ['the default values', []],
    ['every optional feature on', [EVERY_FEATURE_VALUES]],
  ])('sets no field the schemas do not define, with %s', (_label, files) => {
    expect(unknownFields(render({}, { files }))).toEqual([]);
  });

  it('catches a misspelt field, which the API server would drop without a word', () => {
    const objects = render();
    const deployment = objects.find((object) => object.kind === 'Deployment') as
      { spec: { template: { spec: { containers: Record<string, unknown>[] } } } } | undefined;
    deployment!.spec.template.spec.containers[0]!.readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };

    expect(unknownFields(objects)).toEqual([
      expect.stringMatching(/^Deployment\/web-meridian: .*'"readinesProbe"' does not exist in type 'IContainer'/),
    ]);
  });

  it('catches an object that breaks its schema', () => {
    const [deployment] = render().filter((object) => object.kind === 'Deployment');
    const broken = { ...deployment!, spec: { ...(deployment!.spec as object), replicas: 'two' } };

    expect(schemaViolations(broken)).toEqual([expect.stringContaining('spec/replicas must be integer')]);
  });

  it('gives every object the standard labels and commonLabels, and a selector without the version', () => {
    // extraManifests are the operator's objects, labelled as they wrote them.
    for (const object of render({}, { files: [EVERY_FEATURE_VALUES] }).filter((candidate) => !candidate.metadata.name.endsWith('-extra'))) {
      expect(Object.keys(object.metadata.labels ?? {}), `${object.kind}/${object.metadata.name}`).toEqual(
        expect.arrayContaining([
          'app.kubernetes.io/name',
          'app.kubernetes.io/instance',
          'app.kubernetes.io/version',
          'app.kubernetes.io/component',
          'app.kubernetes.io/part-of',
          'app.kubernetes.io/managed-by',
          'helm.sh/chart',
          'example.com/cost-center',
        ]),
      );
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(
        object.metadata.name.endsWith('-dashboard') ? 'monitoring' : 'web-prod',
      );
    }
  });
});
