import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLUSTER_BUILDS, IMAGE_REPOSITORY } from '../../tools/cluster/app-images.mjs';
import { clusterAccess } from '../../tools/gameday/cluster-access.mjs';
import { ROOT } from '../../tools/lib/app-server.mjs';
import { run } from '../../tools/lib/command.mjs';
import { startDaemon } from '../../tools/lib/daemon.mjs';
import { waitFor } from '../../tools/lib/wait.mjs';

// `npm run gameday` on a cluster without the Operator's CRDs (as `cluster:up` leaves it),
// interrupted (Ctrl-C) while it installs its releases: it has installed the CRDs its
// releases need, removes what it made (its namespace, with the releases in it, and the fault
// images) and exits 130.
const namespace = 'meridian-gameday-interrupted';
const image = `${IMAGE_REPOSITORY}:${CLUSTER_BUILDS.a}`;
const MONITORING_CRDS = ['servicemonitors.monitoring.coreos.com', 'prometheusrules.monitoring.coreos.com'];

describe('npm run gameday, interrupted', () => {
  test('SIGINT while the releases install: the CRDs in place, namespace and fault images removed, no child left, exit 130', async () => {
    const access = clusterAccess();
    await access.kubectl(['delete', 'crd', ...MONITORING_CRDS, '--ignore-not-found', '--wait=true']);
    const gameday = await startDaemon({
      name: 'npm run gameday',
      command: process.execPath,
      args: [path.join(ROOT, 'scripts', 'gameday.mjs'), '--namespace', namespace, '--image', image],
      cwd: ROOT,
    });
    await waitFor('the game day to install its releases', () => expect(gameday.output()).toContain('gameday: installing'), {
      timeoutMs: 300_000,
      intervalMs: 500,
    });
    const { stdout: crds } = await access.kubectl(['get', 'crd', ...MONITORING_CRDS, '--output', 'name']);
    expect(crds.trim().split('\n')).toEqual(MONITORING_CRDS.map((name) => `customresourcedefinition.apiextensions.k8s.io/${name}`));
    const code = await gameday.stop('SIGINT');
    expect(code, gameday.output()).toBe(130);
    expect(gameday.output()).toContain('gameday: SIGINT: cleaning up');

    // Nothing it started outlives it: no helm or kubectl still at work on the namespace.
    const { stdout: leftovers } = await run('ps', ['-eo', 'args']);
    expect(leftovers.split('\n').filter((line) => line.includes(`--namespace ${namespace}`))).toEqual([]);

    const { stdout: namespaces } = await access.kubectl([
      'get',
      'namespaces',
      '--field-selector',
      `metadata.name=${namespace}`,
      '--output',
      'name',
    ]);
    expect(namespaces.trim()).toBe('');
    const { stdout: images } = await run('docker', [
      'image',
      'ls',
      '--format',
      '{{.Repository}}:{{.Tag}}',
      `${IMAGE_REPOSITORY}:${CLUSTER_BUILDS.a}-gameday-*`,
    ]);
    expect(images.trim()).toBe('');
  });
});
