#!/usr/bin/env node
// Makes a Node base image without any container registry, for machines that
// cannot pull the official node image: a Debian bookworm root file system from
// Debian's own repositories (debootstrap, minbase), the Node.js pinned in
// tools/pins.mjs (the official image's line), this machine's npm, and its CA bundle (trusted by Node through NODE_EXTRA_CA_CERTS, so npm
// reaches the registry from inside the build too). The tests, CI and
// `npm run image` build the Dockerfile on it with --build-arg NODE_IMAGE=<tag>.
//
//   node tools/node-base.mjs    prints the tag, making the image when missing
//
// Runs as root (debootstrap) on a Debian-like host. The image is kept and
// reused: its tag names the pinned Node version, and its label the recipe it came from.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath, run, succeeds } from './lib/command.mjs';
import { ensureDebianPackages } from './debian-packages.mjs';
import { NODE_VERSION, pinnedNode } from './node-runtime.mjs';

const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const RECIPE_LABEL = 'io.meridian.node-base.recipe';
const RECIPE = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 16);

export const NODE_BASE_IMAGE = `meridian-node-base:${NODE_VERSION}`;

async function currentImageExists() {
  try {
    const { stdout } = await run('docker', ['image', 'inspect', '--format', `{{index .Config.Labels "${RECIPE_LABEL}"}}`, NODE_BASE_IMAGE]);
    return stdout.trim() === RECIPE;
  } catch {
    return false;
  }
}

/** Where npm lives on this machine: the package folder behind the `npm` command. */
function npmPackageDir() {
  const npm = onPath('npm');
  if (!npm) throw new Error('node-base: `npm` is not on PATH');
  return path.resolve(path.dirname(realpathSync(npm)), '..');
}

/**
 * The pinned Node, this machine's npm and its CA bundle, where the official image keeps them.
 * @param {string} rootfs
 */
function addNode(rootfs) {
  const bin = path.join(rootfs, 'usr/local/bin');
  const modules = path.join(rootfs, 'usr/local/lib/node_modules');
  mkdirSync(bin, { recursive: true });
  mkdirSync(modules, { recursive: true });
  cpSync(pinnedNode(), path.join(bin, 'node'));
  cpSync(npmPackageDir(), path.join(modules, 'npm'), { recursive: true, verbatimSymlinks: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(bin, 'npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(bin, 'npx'));
  mkdirSync(path.join(rootfs, path.dirname(CA_BUNDLE)), { recursive: true });
  cpSync(process.env.NODE_EXTRA_CA_CERTS || CA_BUNDLE, path.join(rootfs, CA_BUNDLE));
}

/**
 * What the image needs no copy of: downloaded packages, package lists, manuals, translations.
 * @param {string} rootfs
 */
async function trim(rootfs) {
  await run('chroot', [rootfs, 'apt-get', 'clean']);
  for (const dir of ['var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/locale', 'usr/share/info']) {
    rmSync(path.join(rootfs, dir), { recursive: true, force: true });
  }
  // apt-get update expects this folder.
  mkdirSync(path.join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
}

/** @param {string} rootfs */
async function importImage(rootfs) {
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `ENV NODE_VERSION=${NODE_VERSION}`,
    `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}`,
    `LABEL ${RECIPE_LABEL}=${RECIPE}`,
    'CMD ["node"]',
  ].flatMap((change) => ['--change', change]);
  // tar streams the tree; docker import turns it into a one-layer image.
  const archive = path.join(path.dirname(rootfs), 'rootfs.tar');
  await run('tar', ['--numeric-owner', '-C', rootfs, '-cf', archive, '.']);
  await run('docker', ['import', ...changes, archive, NODE_BASE_IMAGE]);
}

/** The local Node base image's tag; makes it (a few minutes) unless this recipe already did. */
export async function ensureNodeBase() {
  if (await currentImageExists()) return NODE_BASE_IMAGE;
  if (!succeeds('debootstrap', ['--version'])) ensureDebianPackages(['debootstrap']);
  // stdout is the tag alone, for `$(node tools/node-base.mjs)`.
  console.error(`\n>>> node-base: making ${NODE_BASE_IMAGE} from Debian ${SUITE} (debootstrap) and the pinned Node ${NODE_VERSION}\n`);
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-node-base-'));
  const rootfs = path.join(work, 'rootfs');
  try {
    await run('debootstrap', ['--variant=minbase', SUITE, rootfs, MIRROR]);
    await trim(rootfs);
    addNode(rootfs);
    await importImage(rootfs);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return NODE_BASE_IMAGE;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await ensureNodeBase());
}
