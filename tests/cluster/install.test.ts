import { describe, expect, test } from 'vitest';
import { helm, kubectl } from '../../tools/cluster/kubectl.mjs';
import { testRelease } from '../../tools/cluster/release.mjs';
import { buildIdOfPage } from '../../tools/rollout/answered-build.mjs';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { NETWORK } from '../../tools/cluster/layout.mjs';
import { cidrContains, insideTestBlock } from '../../tools/lib/test-network.mjs';
import { releaseForThisFile, webPods } from './support/releases';

const ref = { release: 'meridian', namespace: 'meridian-install' };
const NODE_PORT = 30080;

describe('helm install --wait into a namespace enforcing the restricted Pod Security profile', () => {
  releaseForThisFile(ref, NODE_PORT);

  test('both pods run build A and are Ready when helm returns', async () => {
    const pods = await webPods(ref);
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.spec.containers[0]?.image).toBe(`meridian:${CLUSTER_BUILDS.a}`);
      expect(pod.status.conditions?.find((condition) => condition.type === 'Ready')?.status).toBe('True');
    }
  });

  test('pods and the Service have addresses inside 198.18.0.0/15, in the ranges the cluster gives them', async () => {
    for (const { status } of await webPods(ref)) {
      expect(insideTestBlock(status.podIP ?? ''), status.podIP).toBe(true);
      expect(cidrContains(NETWORK.podCidr, status.podIP ?? ''), status.podIP).toBe(true);
    }
    const { stdout: clusterIp } = await kubectl([
      'get',
      'service',
      ref.release,
      '--namespace',
      ref.namespace,
      '-o',
      'jsonpath={.spec.clusterIP}',
    ]);
    expect(insideTestBlock(clusterIp), clusterIp).toBe(true);
    expect(cidrContains(NETWORK.serviceCidr, clusterIp), clusterIp).toBe(true);
  });

  test('the namespace enforces the profile: a pod that breaks it is refused there', async () => {
    const { stdout } = await kubectl(['get', 'namespace', ref.namespace, '-o', 'jsonpath={.metadata.labels}']);
    expect(JSON.parse(stdout)).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    // No security context at all: allowed by the baseline profile, refused by restricted.
    const unhardened = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'breaks-restricted', namespace: ref.namespace },
      spec: { containers: [{ name: 'c', image: `meridian:${CLUSTER_BUILDS.a}` }] },
    };
    await expect(kubectl(['create', '--dry-run=server', '-f', '-'], { input: JSON.stringify(unhardened) })).rejects.toThrow(
      /violates PodSecurity "restricted/,
    );
  });

  test('helm test passes: its pod reaches the Service by its DNS name', async () => {
    const { stdout: hooks } = await helm(['get', 'hooks', ref.release, '--namespace', ref.namespace]);
    expect(hooks).toMatch(/name: SITE_URL\s+value: "http:\/\/meridian:80"/);
    const { stdout } = await testRelease(ref);
    expect(stdout).toMatch(/Phase:\s+Succeeded/);
  });

  test('the site answers through the NodePort on loopback, from build A', async () => {
    const response = await fetch(`http://127.0.0.1:${NODE_PORT}/ja`);
    expect(response.status).toBe(200);
    expect(buildIdOfPage(await response.text())).toBe(CLUSTER_BUILDS.a);
  });
});
