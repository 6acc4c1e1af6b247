// Images reach the cluster's containerd without a registry: the cluster's own images
// as OCI archives made here, the app's straight out of the local Docker engine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../lib/command.mjs';
import { CONTAINERD_NAMESPACE, PATHS, SYSTEM_IMAGES } from './layout.mjs';
import { writeBinaryImage } from './oci-image.mjs';
import { builtBinary } from '../cluster-binaries.mjs';

/** @param {string[]} args */
function ctrArgs(args) {
  return ['--address', PATHS.containerdSocket, '--namespace', CONTAINERD_NAMESPACE, ...args];
}

/**
 * @typedef {Record<string, string>} Binaries the cluster's binaries by name (tools/cluster-binaries.mjs)
 */

/** The names of the images the cluster's containerd holds. @param {Binaries} binaries */
export async function clusterImages(binaries) {
  const { stdout } = await run(builtBinary(binaries, 'ctr'), ctrArgs(['images', 'list', '--quiet']));
  return stdout.split('\n').filter(Boolean);
}

/** Builds and imports the pod sandbox and CoreDNS images from the binaries. @param {Binaries} binaries */
export async function importSystemImages(binaries) {
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-system-images-'));
  try {
    const images = [
      { ref: SYSTEM_IMAGES.pause, binary: builtBinary(binaries, 'pause'), entrypoint: ['/pause'] },
      {
        ref: SYSTEM_IMAGES.coredns,
        binary: builtBinary(binaries, 'coredns'),
        entrypoint: ['/coredns'],
        exposedPorts: ['53/udp', '53/tcp'],
      },
    ];
    for (const image of images) {
      const archive = path.join(work, `${path.basename(image.binary)}.tar`);
      writeBinaryImage({ ...image, archive });
      await run(builtBinary(binaries, 'ctr'), ctrArgs(['images', 'import', archive]));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Streams `docker save <images>` into containerd's import; rejects naming whichever side failed.
 * @param {Binaries} binaries
 * @param {string[]} images
 * @returns {Promise<void>}
 */
export function importDockerImages(binaries, images) {
  return new Promise((resolve, reject) => {
    const save = spawn('docker', ['save', ...images], { stdio: ['ignore', 'pipe', 'pipe'] });
    const load = spawn(builtBinary(binaries, 'ctr'), ctrArgs(['images', 'import', '-']), { stdio: ['pipe', 'pipe', 'pipe'] });
    save.stdout.pipe(load.stdin);
    // ctr dying mid-stream closes its stdin under the pipe: its exit code says why.
    load.stdin.on('error', () => {});
    let errors = '';
    save.stderr.on('data', (chunk) => (errors += chunk));
    load.stderr.on('data', (chunk) => (errors += chunk));
    const exits = [save, load].map((child) => new Promise((done) => child.on('close', done)));
    save.on('error', reject);
    load.on('error', (error) => {
      save.kill();
      reject(error);
    });
    Promise.all(exits).then(([saved, loaded]) => {
      if (saved === 0 && loaded === 0) return resolve();
      reject(
        new Error(
          `cluster: importing ${images.join(' ')} failed (docker save exited ${saved}, ctr import ${loaded}): ${errors.trim().split('\n').slice(-5).join(' / ')}`,
        ),
      );
    });
  });
}
