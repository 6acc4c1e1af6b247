import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CLUSTER_BUILDS } from '../../tools/cluster/app-images.mjs';
import { programmedNodePortDestinations } from '../../tools/cluster/kube-proxy-rules.mjs';
import { kubectl } from '../../tools/cluster/kubectl.mjs';
import {
  createRestrictedNamespace,
  deployRelease,
  localClusterValues,
  uninstallRelease,
  waitForNodePort,
  writeValuesFile,
} from '../../tools/cluster/release.mjs';
import { untranslatedConnections } from './support/conntrack';

const ref = { release: 'meridian', namespace: 'meridian-node-port' };
const NODE_PORT = 30087;
const dir = mkdtempSync(path.join(tmpdir(), 'meridian-node-port-'));

afterAll(async () => {
  await uninstallRelease(ref);
  await kubectl(['delete', 'namespace', ref.namespace, '--ignore-not-found', '--timeout=180s']);
  rmSync(dir, { recursive: true, force: true });
});

// The rollout's load once met a single refused connection before the upgrade began: the
// wait's own early probes, refused while kube-proxy had no endpoints for the port, had left
// untranslated conntrack entries that a load connection reusing a source port then matched.
test('waiting for the NodePort while the release installs leaves no untranslated connection behind for the load to stumble on', async () => {
  const valuesFile = path.join(dir, 'values.json');
  writeValuesFile(valuesFile, localClusterValues(NODE_PORT));
  await createRestrictedNamespace(ref.namespace);
  const installing = deployRelease({ ...ref, valuesFile, tag: CLUSTER_BUILDS.a });
  // Begun while the port is not translated: the Service has no ready endpoint yet.
  expect(await programmedNodePortDestinations(NODE_PORT)).toEqual([]);
  await waitForNodePort(ref, NODE_PORT);
  expect(untranslatedConnections(NODE_PORT)).toEqual([]);
  await installing;
});
