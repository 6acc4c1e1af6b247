import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, find, render, renderError } from '../support/chart';
import { deploymentOf, podSpecOf, testPodOf, webContainerOf } from '../support/workload';

describe('the pod template', () => {
  it('requests CPU, memory and the two emptyDirs’ storage, and limits memory, without a CPU limit', () => {
    expect(webContainerOf(render()).resources).toEqual({
      requests: { cpu: '100m', memory: '256Mi', 'ephemeral-storage': '512Mi' },
      limits: { memory: '512Mi' },
    });
    expect(podSpecOf(render()).volumes?.map((volume) => volume.emptyDir?.sizeLimit)).toEqual(['256Mi', '256Mi']);
  });

  it('sizes the ephemeral-storage request to the emptyDirs’ size limit, whatever its unit', () => {
    expect(webContainerOf(render({ emptyDirSizeLimit: '1Gi' })).resources?.requests).toMatchObject({ 'ephemeral-storage': '2Gi' });
    expect(webContainerOf(render({ emptyDirSizeLimit: '750M' })).resources?.requests).toMatchObject({ 'ephemeral-storage': '1500M' });
    expect(webContainerOf(render({ emptyDirSizeLimit: '1000000' })).resources?.requests).toMatchObject({ 'ephemeral-storage': '2000000' });
  });

  it('takes resources from the values, an ephemeral-storage request included', () => {
    const resources = {
      requests: { cpu: '250m', memory: '300Mi', 'ephemeral-storage': '2Gi' },
      limits: { cpu: 1, memory: '1Gi', 'ephemeral-storage': '4Gi' },
    };

    expect(webContainerOf(render({ resources })).resources).toEqual(resources);
    expect(webContainerOf(render({ resources: { requests: { cpu: '250m' } } })).resources).toEqual({
      requests: { cpu: '250m', memory: '256Mi', 'ephemeral-storage': '512Mi' },
      limits: { memory: '512Mi' },
    });
  });

  it('requests no more ephemeral storage than a limit the values set: with a limit alone, Kubernetes requests the limit', () => {
    const resources = { limits: { memory: '512Mi', 'ephemeral-storage': '256Mi' } };
    const container = webContainerOf(render({ resources }));

    expect(container.resources?.limits).toEqual({ memory: '512Mi', 'ephemeral-storage': '256Mi' });
    expect(container.resources?.requests).toEqual({ cpu: '100m', memory: '256Mi' });
  });

  it('refuses a request above its limit, whatever the units, and takes one equal to it', () => {
    expect(renderError({ resources: { limits: { memory: '128Mi' } } })).toContain(
      'resources.requests.memory=256Mi is above resources.limits.memory=128Mi',
    );
    expect(renderError({ resources: { requests: { cpu: '301m' }, limits: { cpu: 0.3 } } })).toContain(
      'resources.requests.cpu=301m is above resources.limits.cpu=0.3',
    );
    expect(renderError({ resources: { requests: { memory: '1Gi' }, limits: { memory: '1G' } } })).toContain(
      'resources.requests.memory=1Gi is above resources.limits.memory=1G',
    );
    const equal = { requests: { cpu: '300m', memory: '1024Mi' }, limits: { cpu: 0.3, memory: '1Gi' } };
    expect(webContainerOf(render({ resources: equal })).resources).toMatchObject(equal);
  });

  it("refuses an extra volume mount where the chart mounts Next's cache", () => {
    expect(
      renderError({
        extraVolumes: [{ name: 'cache', emptyDir: {} }],
        extraVolumeMounts: [{ name: 'cache', mountPath: '/app/.next/cache/' }],
      }),
    ).toContain("extraVolumeMounts: cache mounts at /app/.next/cache/, where the chart mounts Next's cache (app.cacheDir)");
  });

  it('runs as the ServiceAccount the chart creates', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const account = find(objects, 'ServiceAccount');

    expect(podSpecOf(objects).serviceAccountName).toBe(account.metadata.name);
    expect(account.metadata.annotations).toEqual({ 'example.com/role': 'meridian', 'example.com/owner': 'web-team' });
  });

  it('runs as an existing ServiceAccount when told not to create one', () => {
    const objects = render({ serviceAccount: { create: false, name: 'shared-web' } });

    expect(objects.map((object) => object.kind)).not.toContain('ServiceAccount');
    expect(podSpecOf(objects).serviceAccountName).toBe('shared-web');
  });

  it('adds init containers, sidecars, extra volumes and mounts (templated), dnsConfig and minReadySeconds', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const podSpec = podSpecOf(objects);

    expect(podSpec.initContainers?.map((container) => container.name)).toEqual(['wait-for-config']);
    expect(podSpec.containers.map((container) => container.name)).toEqual(['meridian', 'log-shipper']);
    expect(podSpec.volumes?.find((volume) => volume.name === 'extra-config')?.configMap?.name).toBe('web-meridian-extra');
    expect(webContainerOf(objects).volumeMounts).toContainEqual({ name: 'extra-config', mountPath: '/etc/meridian', readOnly: true });
    expect(podSpec.dnsConfig).toEqual({ options: [{ name: 'ndots', value: '2' }] });
    expect(deploymentOf(objects).spec).toMatchObject({ minReadySeconds: 5, revisionHistoryLimit: 5 });
  });

  it('puts commonLabels on every object and the pods, commonAnnotations on every object but not the pods', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const template = deploymentOf(objects).spec?.template;

    expect(template?.metadata?.labels?.['example.com/cost-center']).toBe('web');
    expect(template?.metadata?.annotations).not.toHaveProperty('example.com/owner');
    expect(deploymentOf(objects).metadata?.annotations).toEqual({ 'example.com/owner': 'web-team' });
    expect(testPodOf(objects).metadata?.annotations).toMatchObject({ 'example.com/owner': 'web-team', 'helm.sh/hook': 'test' });
  });

  it('refuses commonLabels and podLabels that would overwrite the chart’s own labels', () => {
    expect(renderError({ commonLabels: { 'app.kubernetes.io/name': 'x' } })).toContain("invalid propertyName 'app.kubernetes.io/name'");
    expect(renderError({ podLabels: { 'helm.sh/chart': 'x' } })).toContain("invalid propertyName 'helm.sh/chart'");
    expect(() => render({ commonLabels: { 'example.com/team': 'web' }, podLabels: { 'app.example.com/tier': 'web' } })).not.toThrow();
  });

  it('writes each pod label once, podLabels over commonLabels for a key both name', () => {
    const objects = render({
      commonLabels: { 'example.com/team': 'web', 'example.com/tier': 'front' },
      podLabels: { 'example.com/team': 'checkout' },
    });
    const labels = deploymentOf(objects).spec?.template?.metadata?.labels;

    expect(labels).toMatchObject({ 'example.com/team': 'checkout', 'example.com/tier': 'front', 'app.kubernetes.io/component': 'web' });
    expect(deploymentOf(objects).metadata?.labels).toMatchObject({ 'example.com/team': 'web' });
  });

  it('renders extraManifests, maps and strings, through tpl', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });

    expect(find(objects, 'ConfigMap', '-extra').data).toEqual({ release: 'web' });
    expect(find(objects, 'Secret', '-extra').metadata).toMatchObject({ name: 'web-meridian-extra', namespace: 'web-prod' });
  });

  it('puts every object in namespaceOverride', () => {
    const namespaces = new Set(render({ namespaceOverride: 'elsewhere' }).map((object) => object.metadata.namespace));

    expect([...namespaces]).toEqual(['elsewhere']);
  });

  it('adds pod labels, pod annotations and pull secrets (global ones first), to the test pod too where it pulls the same image', () => {
    const objects = render({}, { files: [EVERY_FEATURE_VALUES] });
    const template = deploymentOf(objects).spec?.template;

    expect(template?.metadata?.labels?.['example.com/tier']).toBe('frontend');
    expect(template?.metadata?.annotations).toMatchObject({ 'example.com/team': 'web' });
    expect(podSpecOf(objects).imagePullSecrets).toEqual([{ name: 'global-registry-credentials' }, { name: 'registry-credentials' }]);
    expect(testPodOf(objects).spec?.imagePullSecrets).toEqual([{ name: 'global-registry-credentials' }, { name: 'registry-credentials' }]);
  });
});
