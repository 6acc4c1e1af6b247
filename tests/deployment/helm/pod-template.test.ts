import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, find, render } from '../support/chart';
import { deploymentOf, podSpecOf, testPodOf, webContainerOf } from '../support/workload';

describe('the pod template', () => {
  it('requests CPU and memory and limits memory, without a CPU limit', () => {
    expect(webContainerOf(render()).resources).toEqual({ requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } });
  });

  it('takes resources from the values', () => {
    const resources = { requests: { cpu: '250m', memory: '300Mi' }, limits: { cpu: 1, memory: '1Gi' } };

    expect(webContainerOf(render({ resources })).resources).toEqual(resources);
  });

  it('runs as the ServiceAccount the chart creates', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const account = find(objects, 'ServiceAccount');

    expect(podSpecOf(objects).serviceAccountName).toBe(account.metadata.name);
    expect(account.metadata.annotations).toEqual({ 'example.com/role': 'meridian' });
  });

  it('runs as an existing ServiceAccount when told not to create one', () => {
    const objects = render({ serviceAccount: { create: false, name: 'shared-web' } });

    expect(objects.map((object) => object.kind)).not.toContain('ServiceAccount');
    expect(podSpecOf(objects).serviceAccountName).toBe('shared-web');
  });

  it('adds pod labels, pod annotations and pull secrets, to the test pod too where it pulls the same image', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const template = deploymentOf(objects).spec?.template;

    expect(template?.metadata?.labels?.['example.com/tier']).toBe('frontend');
    expect(template?.metadata?.annotations).toMatchObject({ 'example.com/team': 'web', 'checksum/config': expect.any(String) });
    expect(podSpecOf(objects).imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
    expect(testPodOf(objects).spec?.imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
  });
});
