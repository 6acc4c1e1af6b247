import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, find, render } from '../support/chart';
import { podSpecOf, testPodOf, webContainerOf } from '../support/workload';

// The restricted Pod Security Standard: https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted
const RESTRICTED_CONTAINER = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

describe('pod security', () => {
  const objects = render();

  it('runs the web container under the restricted profile with a numeric non-root user', () => {
    const podSecurity = podSpecOf(objects).securityContext;
    const containerSecurity = webContainerOf(objects).securityContext;

    expect(podSecurity).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(podSecurity?.runAsUser).toBeGreaterThan(0);
    expect(containerSecurity).toMatchObject(RESTRICTED_CONTAINER);
    expect(containerSecurity?.runAsUser).toBeGreaterThan(0);
    expect(containerSecurity?.capabilities?.add).toBeUndefined();
  });

  it('mounts emptyDirs where the process writes: /tmp and the Next cache', () => {
    const mounts = webContainerOf(objects).volumeMounts ?? [];
    const volumes = podSpecOf(objects).volumes ?? [];
    const mountedAt = (mountPath: string) =>
      volumes.find((volume) => volume.name === mounts.find((mount) => mount.mountPath === mountPath)?.name);

    expect(mountedAt('/tmp')?.emptyDir).toBeDefined();
    expect(mountedAt('/app/.next/cache')?.emptyDir).toBeDefined();
    expect(volumes.every((volume) => volume.emptyDir?.sizeLimit)).toBe(true);
  });

  it('mounts the cache emptyDir at app.cacheDir', () => {
    const mounts = webContainerOf(render({ app: { cacheDir: '/srv/meridian/.next/cache' } })).volumeMounts ?? [];

    expect(mounts.map((mount) => mount.mountPath)).toEqual(['/tmp', '/srv/meridian/.next/cache']);
  });

  it('mounts no service account token, on the pod and on the ServiceAccount', () => {
    expect(podSpecOf(objects).automountServiceAccountToken).toBe(false);
    expect(find(objects, 'ServiceAccount').automountServiceAccountToken).toBe(false);
    expect(testPodOf(objects).spec?.automountServiceAccountToken).toBe(false);
  });

  it('runs the helm test pod under the same restricted profile', () => {
    const testPod = testPodOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(testPod.spec?.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(testPod.spec?.containers[0]?.securityContext).toMatchObject(RESTRICTED_CONTAINER);
  });
});
