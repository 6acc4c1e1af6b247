// Makes sure wrk, Chromium, Lighthouse 12 and a production build exist, installing what is missing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVER_ENTRY } from '../lib/app-server.mjs';
import { E2E_BUILD_ENV, ensureBuild as buildIfStale, sourceHash } from '../lib/builds.mjs';
import { CHROMIUM_PATH, ensureBrowser, ensureDebianPackages } from '../debian-packages.mjs';
import { PINS } from '../pins.mjs';
import { onPath, runSync } from '../lib/command.mjs';
import { log, loud } from './util.mjs';

export const LIGHTHOUSE_VERSION = PINS.lighthouse.version;
const BUILD_ID = path.join(ROOT, '.next/BUILD_ID');
const LOCK = path.join(ROOT, '.next/lock');

function ensureWrk() {
  if (onPath('wrk')) return;
  loud('wrk is not on PATH: INSTALLING it with apt-get (apt-get update && apt-get install -y wrk)');
  ensureDebianPackages(['wrk']);
  if (!onPath('wrk')) throw new Error('wrk is still missing after apt-get install -y wrk');
}

function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return;
  loud(`${CHROMIUM_PATH} is missing: INSTALLING chromium and fonts-noto-cjk with apt-get`);
  ensureBrowser();
}

// Read from disk, not through require.resolve: Node caches a failed package lookup,
// which would make the later import('lighthouse') fail in the run that installs it.
function installedLighthouseVersion() {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function ensureLighthouse() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const declared = pkg.devDependencies?.lighthouse;
  const installed = installedLighthouseVersion();
  if (declared === LIGHTHOUSE_VERSION && installed === LIGHTHOUSE_VERSION) return;
  loud(
    `Lighthouse ${LIGHTHOUSE_VERSION} is missing (package.json: ${declared ?? 'none'}, node_modules: ${installed ?? 'none'}): ` +
      `INSTALLING it with npm install --save-dev --save-exact lighthouse@${LIGHTHOUSE_VERSION}`,
  );
  runSync('npm', ['install', '--save-dev', '--save-exact', `lighthouse@${LIGHTHOUSE_VERSION}`], { cwd: ROOT, echo: true });
  const after = installedLighthouseVersion();
  if (after !== LIGHTHOUSE_VERSION) throw new Error(`lighthouse ${LIGHTHOUSE_VERSION} is still missing after npm install (found ${after})`);
}

const sleepSync = (/** @type {number} */ ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Another `next build` holds .next/lock (it deletes BUILD_ID first): wait for its output. */
function waitForOtherBuild(timeoutMs = 10 * 60_000) {
  const deadline = Date.now() + timeoutMs;
  const done = () => existsSync(BUILD_ID) && existsSync(path.join(ROOT, SERVER_ENTRY));
  while (existsSync(LOCK) && !done() && Date.now() < deadline) sleepSync(2000);
  const settle = Math.min(deadline, Date.now() + 60_000); // the server entry is written after next build ends
  while (!done() && Date.now() < settle) sleepSync(1000);
}

/** Which sources and settings the build in .next was made from (tools/lib/builds.mjs keeps a hash). */
function describeBuild() {
  const file = path.join(ROOT, '.next/meridian-source-hash');
  const current = existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
  if (current === sourceHash({})) return 'production';
  if (current === sourceHash(E2E_BUILD_ENV)) return 'e2e-fixtures';
  return current ? 'stale' : 'unknown';
}

/**
 * Reuses the build in .next when there is one (`rebuild` rebuilds it when it is not a
 * production build of the current sources); builds with `npm run build` (next build plus the
 * server entry that tools/lib/app-server.mjs starts) when it is missing.
 * @param {{ rebuild?: boolean }} [options]
 */
export function ensureBuild({ rebuild = false } = {}) {
  delete process.env.MERIDIAN_E2E_FIXTURES; // benchmark the production page set, never the e2e fixtures
  const built = existsSync(BUILD_ID) && existsSync(path.join(ROOT, SERVER_ENTRY));
  if (built && !rebuild) {
    const kind = describeBuild();
    const id = readFileSync(BUILD_ID, 'utf8').trim();
    log(`Using the existing build in .next (BUILD_ID ${id}): ${kind}.`);
    if (kind !== 'production') {
      loud(
        `WARNING: .next is ${kind === 'e2e-fixtures' ? 'the e2e-fixtures build' : `a ${kind} build`}, not a production build ` +
          'of the current sources; run the bench with --rebuild to rebuild first',
      );
    }
    return { buildId: id, kind };
  }
  loud(
    built
      ? '--rebuild: BUILDING unless .next is a production build of the current sources'
      : '.next has no build: BUILDING the app with npm run build (next build + scripts/build-server.mjs)',
  );
  try {
    buildIfStale({});
  } catch (error) {
    // "Another next build process is already running": someone else is building .next; use theirs.
    if (!existsSync(LOCK)) throw error;
    log('The build failed while .next/lock exists (another build is running): waiting up to 10 min for it...');
    waitForOtherBuild();
  }
  if (!existsSync(BUILD_ID) || !existsSync(path.join(ROOT, SERVER_ENTRY)))
    throw new Error(`the build left no .next/BUILD_ID or ${SERVER_ENTRY}`);
  return { buildId: readFileSync(BUILD_ID, 'utf8').trim(), kind: describeBuild() };
}

/**
 * Installs whatever is missing; throws (a crash) when a tool still cannot be found.
 * `browser: false` (no Chromium stage selected by --only) checks wrk only.
 */
export function ensureTools({ browser = true } = {}) {
  ensureWrk();
  if (!browser) return;
  ensureChromium();
  ensureLighthouse();
}
