// The Docker image: how much it adds above its Node base, and how long a
// container takes from `docker run` to an answering /readyz. Builds the image
// with `npm run image` first (the engine's layer cache makes a rebuild quick).
import { execFileSync } from 'node:child_process';
import { ROOT } from '../lib/app-server.mjs';
import { buildRevision, resolveBuildId } from '../../src/build/build-identity.mjs';
import { ensureDockerEngine } from '../docker-engine.mjs';
import { heading, log, median, round } from './util.mjs';

export const IMAGE_TARGETS = { layersAboveBaseMB: 80, readySeconds: 2 };
const READY_RUNS = 5;
const READY_TIMEOUT_MS = 30_000;

const docker = (/** @type {string[]} */ args) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const sizeMB = (/** @type {string} */ image) => Number(docker(['image', 'inspect', '--format', '{{.Size}}', image])) / 1e6;

/**
 * The base the image was built on, as its OCI label names it.
 * @param {string} image
 */
function baseImageOf(image) {
  const label = docker(['image', 'inspect', '--format', '{{index .Config.Labels "org.opencontainers.image.base.name"}}', image]);
  if (!label || label === '<no value>') throw new Error(`bench image: ${image} has no org.opencontainers.image.base.name label`);
  return label;
}

/**
 * Seconds from `docker run` to the first 200 of /readyz, as docs/operations.md#docker runs the image (read-only, tmpfs).
 * @param {string} image
 */
async function secondsToReady(image) {
  const startedAt = performance.now();
  const id = docker([
    'run',
    '--detach',
    '--rm',
    '--read-only',
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/app/.next/cache:uid=10001,gid=10001',
    '--publish',
    '127.0.0.1::3000',
    image,
  ]);
  try {
    const port = docker(['port', id, '3000/tcp']).split('\n')[0]?.split(':').at(-1);
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return (performance.now() - startedAt) / 1000;
      } catch {
        // not listening yet
      }
      if (performance.now() - startedAt > READY_TIMEOUT_MS)
        throw new Error(`bench image: ${image} not ready within ${READY_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    docker(['stop', '--time', '30', id]);
  }
}

export async function measureImage() {
  heading('Docker image');
  const engine = await ensureDockerEngine();
  try {
    return await measure();
  } finally {
    await engine.stop();
  }
}

async function measure() {
  execFileSync('npm', ['run', 'image'], { cwd: ROOT, stdio: 'inherit' });
  const image = `meridian:${resolveBuildId(process.env, buildRevision(process.env, ROOT))}`;
  const base = baseImageOf(image);
  const layersAboveBaseMB = round(sizeMB(image) - sizeMB(base), 1);
  log(`  ${image}: ${round(sizeMB(image), 1)} MB, of which ${layersAboveBaseMB} MB above its base ${base}`);
  const runs = [];
  for (let index = 0; index < READY_RUNS; index += 1) runs.push(round(await secondsToReady(image), 2));
  const medianSeconds = median(runs);
  log(`  docker run → /readyz 200: ${runs.join(', ')} s (median ${medianSeconds} s)`);
  return { image, base, layersAboveBaseMB, readySeconds: runs, medianReadySeconds: medianSeconds, targets: IMAGE_TARGETS };
}
