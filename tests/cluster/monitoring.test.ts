import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { helm, kubectl } from '../../tools/cluster/kubectl.mjs';
import { CHART_DIR, createRestrictedNamespace, uninstallRelease } from '../../tools/cluster/release.mjs';
import { EVERY_FEATURE_VALUES, type KubernetesObject } from '../deployment/support/chart';

const ref = { release: 'every-feature', namespace: 'meridian-every-feature' };
/**
 * The fixture's namespaceOverride (where the release's objects go) and the namespace
 * Grafana watches (where the dashboard ConfigMap goes): they must exist beforehand.
 */
const OTHER_NAMESPACES = ['web-prod', 'monitoring'];

describe('the chart with every optional feature on, installed for real', () => {
  let manifest: KubernetesObject[];
  beforeAll(async () => {
    await createRestrictedNamespace(ref.namespace);
    for (const namespace of OTHER_NAMESPACES) await createRestrictedNamespace(namespace);
    // No --wait: its pods name a registry that cannot be reached here; what is proven is
    // that the API server accepts every object the chart renders, not that they run.
    await helm(['upgrade', '--install', ref.release, CHART_DIR, '--namespace', ref.namespace, '--values', EVERY_FEATURE_VALUES]);
    const { stdout } = await helm(['get', 'manifest', ref.release, '--namespace', ref.namespace]);
    manifest = parseAllDocuments(stdout)
      .map((document) => document.toJS() as KubernetesObject | null)
      .filter((object): object is KubernetesObject => object !== null);
  });
  afterAll(async () => {
    await uninstallRelease(ref);
    for (const namespace of [ref.namespace, ...OTHER_NAMESPACES])
      await kubectl(['delete', 'namespace', namespace, '--ignore-not-found', '--timeout=180s']);
  });

  test('the API server holds every object the release rendered, of every optional kind', async () => {
    const kinds = new Set(manifest.map((object) => object.kind));
    for (const kind of [
      'ServiceMonitor',
      'PrometheusRule',
      'Ingress',
      'HTTPRoute',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'NetworkPolicy',
      'ConfigMap',
      'Deployment',
      'Service',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    for (const object of manifest) {
      const namespace = object.metadata.namespace ?? ref.namespace;
      const { stdout } = await kubectl([
        'get',
        object.kind,
        object.metadata.name,
        '--namespace',
        namespace,
        '--output',
        'jsonpath={.metadata.uid}',
      ]).catch((error: Error) => ({ stdout: `missing: ${error.message}` }));
      expect(stdout, `${object.kind} ${namespace}/${object.metadata.name}`).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
