// Builds the app once per source state: the hash of everything that shapes the
// build is kept beside it, and an unchanged tree reuses the build. In tools/ because the
// bench and the rollout demo run the same builds as the tests.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVER_ENTRY } from './app-server.mjs';
import { runSync } from './command.mjs';

const INPUTS = [
  'src',
  'locales',
  'public',
  'scripts/build-server.mjs',
  'next.config.js',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const HASH_FILE = path.join(ROOT, '.next', 'meridian-source-hash');

/**
 * The files under `entry` (a file or a folder, relative to the root), in a stable order.
 * @param {string} entry
 * @returns {Generator<string>}
 */
function* files(entry) {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const child of readdirSync(full).sort()) yield* files(path.join(entry, child));
  } else {
    yield entry;
  }
}

/**
 * The hash of the files under `inputs` (relative to the root) and of the settings `env`:
 * what decides whether a cached build still matches its sources.
 * @param {string[]} inputs
 * @param {Record<string, string>} [env]
 */
export function hashInputs(inputs, env = {}) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(env));
  for (const input of inputs) {
    for (const file of files(input)) {
      hash.update(file);
      hash.update(readFileSync(path.join(ROOT, file)));
    }
  }
  return hash.digest('hex');
}

/**
 * The hash of the build's inputs and of the settings `env` it is made with.
 * @param {Record<string, string>} env
 */
export function sourceHash(env) {
  return hashInputs(INPUTS, env);
}

/**
 * Runs `npm run build` with `env` unless the current build already matches the sources and env.
 * @param {Record<string, string>} [env]
 */
export function ensureBuild(env = {}) {
  const wanted = sourceHash(env);
  const current = existsSync(HASH_FILE) ? readFileSync(HASH_FILE, 'utf8') : '';
  if (current === wanted && existsSync(path.join(ROOT, SERVER_ENTRY))) {
    console.log('build: sources unchanged, reusing .next');
    return;
  }
  console.log('build: npm run build');
  runSync('npm', ['run', 'build'], { cwd: ROOT, echo: true, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env } });
  writeFileSync(HASH_FILE, wanted);
}

/** The build the tests run: production, plus the error-page fixtures, as build "e2e-a". */
export const E2E_BUILD_ENV = { MERIDIAN_E2E_FIXTURES: 'true', BUILD_ID: 'e2e-a' };
/** The same sources as another build, "e2e-b": what a rollout replaces the first with. */
export const NEXT_BUILD_ENV = { MERIDIAN_E2E_FIXTURES: 'true', BUILD_ID: 'e2e-b' };

const BUILD_COPIES = path.join(ROOT, 'node_modules', '.cache', 'meridian-builds');

/**
 * Where ensureBuildCopy(name) puts the copy's server entry.
 * @param {string} name
 */
function buildCopyEntry(name) {
  return path.join(BUILD_COPIES, name, path.basename(SERVER_ENTRY));
}

/**
 * A standalone build made with `env`, kept outside `.next` (which it passes
 * through) and reused while the sources and env are unchanged. Returns the path
 * of its server entry.
 * @param {string} name
 * @param {Record<string, string>} env
 */
export function ensureBuildCopy(name, env) {
  const dir = path.join(BUILD_COPIES, name);
  const hashFile = path.join(dir, 'meridian-source-hash');
  const wanted = sourceHash(env);
  const entry = buildCopyEntry(name);
  if (existsSync(hashFile) && readFileSync(hashFile, 'utf8') === wanted && existsSync(entry)) {
    console.log(`build: ${name} unchanged, reusing ${path.relative(ROOT, dir)}`);
    return entry;
  }
  ensureBuild(env);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(BUILD_COPIES, { recursive: true });
  cpSync(path.join(ROOT, '.next', 'standalone'), dir, { recursive: true, verbatimSymlinks: true });
  writeFileSync(hashFile, wanted);
  return entry;
}

/**
 * Every build the suites use, the copy first so that `.next` ends as the main
 * test build: two builds on a fresh machine, none while nothing changed.
 */
export function ensureTestBuilds() {
  ensureBuildCopy('e2e-b', NEXT_BUILD_ENV);
  ensureBuild(E2E_BUILD_ENV);
}

/** The two builds ensureTestBuilds leaves, by id and server entry: A in `.next`, B its copy. */
export const TEST_BUILDS = {
  a: { id: E2E_BUILD_ENV.BUILD_ID, entry: path.join(ROOT, SERVER_ENTRY) },
  b: { id: NEXT_BUILD_ENV.BUILD_ID, entry: buildCopyEntry('e2e-b') },
};
