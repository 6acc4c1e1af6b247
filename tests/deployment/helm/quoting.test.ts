import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { describe, expect, it } from 'vitest';
import { find, render } from '../support/chart';
import { schemaViolations } from '../support/kubernetes-schemas';
import { podSpecOf } from '../support/workload';

/**
 * Strings a values file or a command line may hold that YAML would read as something else
 * if written bare into a manifest: digits (a number, or octal in YAML 1.1), `yes`, a ` #`
 * that starts a comment. Each is a valid name or path where it is used.
 */
describe('user strings in the manifests', () => {
  it('stay strings in the Ingress: TLS secret, path and class', () => {
    const ingress = find(
      render({
        ingress: {
          enabled: true,
          className: '0123',
          hosts: [{ host: 'www.example.com', paths: [{ path: '/ja #top', pathType: 'ImplementationSpecific' }] }],
          tls: [{ secretName: '0123', hosts: ['www.example.com'] }],
        },
      }),
      'Ingress',
    ) as unknown as IIngress;

    expect(ingress.spec?.ingressClassName).toBe('0123');
    expect(ingress.spec?.tls?.[0]?.secretName).toBe('0123');
    expect(ingress.spec?.rules?.[0]?.http?.paths[0]?.path).toBe('/ja #top');
  });

  it('stay strings as release name, namespace, account and class names and the emptyDir size, every object valid', () => {
    const objects = render(
      {
        serviceAccount: { create: true, name: '1e3' },
        priorityClassName: 'yes',
        emptyDirSizeLimit: '1000',
      },
      { release: '2026', namespace: '0123' },
    );

    expect(objects.flatMap(schemaViolations)).toEqual([]);
    for (const object of objects) {
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe('0123');
      expect(object.metadata.labels?.['app.kubernetes.io/instance'], `${object.kind}/${object.metadata.name}`).toBe('2026');
    }
    expect(podSpecOf(objects)).toMatchObject({ serviceAccountName: '1e3', priorityClassName: 'yes' });
    expect(podSpecOf(objects).volumes?.[0]?.emptyDir?.sizeLimit).toBe('1000');
  });

  it('stay strings in the NetworkPolicies of an all-digit namespace', () => {
    const policies = render({ networkPolicy: { enabled: true } }, { namespace: '0123' }).filter(
      (object) => object.kind === 'NetworkPolicy',
    );

    expect(policies.map((policy) => policy.metadata.namespace)).toEqual(['0123', '0123']);
    expect(policies.flatMap(schemaViolations)).toEqual([]);
  });
});
