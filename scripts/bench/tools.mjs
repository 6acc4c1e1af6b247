// Makes sure wrk, Chromium, Lighthouse 12 and a production build exist, installing what is missing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { CHROMIUM_PATH, log, loud, onPath, runInherit } from './util.mjs';

export const LIGHTHOUSE_VERSION = '12.8.2';

const SUDO = typeof process.getuid === 'function' && process.getuid() !== 0 && onPath('sudo') ? ['sudo'] : [];
let aptUpdated = false;

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => (SUDO.length ? runInherit('sudo', args, { env }) : runInherit(args[0], args.slice(1), { env }));
  if (!aptUpdated) {
    run(['apt-get', 'update']);
    aptUpdated = true;
  }
  run(['apt-get', 'install', '-y', ...packages]);
}

function ensureWrk() {
  if (onPath('wrk')) return;
  loud('wrk is not on PATH: INSTALLING it with apt-get (apt-get update && apt-get install -y wrk)');
  aptInstall(['wrk']);
  if (!onPath('wrk')) throw new Error('wrk is still missing after apt-get install -y wrk');
}

function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return;
  loud(`${CHROMIUM_PATH} is missing: INSTALLING chromium and fonts-noto-cjk with apt-get`);
  aptInstall(['chromium', 'fonts-noto-cjk']);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is still missing after apt-get install chromium`);
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
  runInherit('npm', ['install', '--save-dev', '--save-exact', `lighthouse@${LIGHTHOUSE_VERSION}`], { cwd: ROOT });
  const after = installedLighthouseVersion();
  if (after !== LIGHTHOUSE_VERSION) throw new Error(`lighthouse ${LIGHTHOUSE_VERSION} is still missing after npm install (found ${after})`);
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Another `next build` holds .next/lock (it deletes BUILD_ID first): wait for its BUILD_ID. */
function waitForOtherBuild(timeoutMs = 10 * 60_000) {
  const lock = path.join(ROOT, '.next/lock');
  const deadline = Date.now() + timeoutMs;
  while (existsSync(lock) && !existsSync(path.join(ROOT, '.next/BUILD_ID')) && Date.now() < deadline) sleepSync(2000);
  const settle = Math.min(deadline, Date.now() + 60_000); // BUILD_ID is written shortly before the build ends
  while (existsSync(lock) && Date.now() < settle) sleepSync(1000);
}

function ensureBuild() {
  if (existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
    log(`Using the existing production build (.next/BUILD_ID ${readFileSync(path.join(ROOT, '.next/BUILD_ID'), 'utf8').trim()}).`);
    return;
  }
  loud('.next/BUILD_ID is missing: BUILDING the app with npx next build');
  const env = { ...process.env, NODE_ENV: 'production' };
  delete env.MERIDIAN_E2E_FIXTURES; // benchmark the production page set, never the e2e fixtures
  try {
    runInherit('npx', ['next', 'build'], { cwd: ROOT, env });
  } catch (error) {
    // "Another next build process is already running": someone else is building .next; use theirs.
    if (!existsSync(path.join(ROOT, '.next/lock'))) throw error;
    log('next build failed while .next/lock exists (another build is running): waiting up to 10 min for it...');
    waitForOtherBuild();
  }
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID'))) throw new Error('next build finished without .next/BUILD_ID');
}

/** Installs whatever is missing; throws (a crash) when a tool still cannot be found. */
export function ensureTools() {
  ensureWrk();
  ensureChromium();
  ensureLighthouse();
  ensureBuild();
}
