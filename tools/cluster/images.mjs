// Images reach every node's containerd without a registry: the cluster's own images
// as OCI archives made here, the app's straight out of the local Docker engine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../lib/command.mjs';
import { clusterNode, CONTAINERD_NAMESPACE, SYSTEM_IMAGES } from './layout.mjs';
import { recordedNodes } from './node-count.mjs';
import { writeBinaryImage } from './oci-image.mjs';
import { builtBinary } from '../cluster-binaries.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

/** ctr's arguments for the node's containerd. @param {ClusterNode} node @param {string[]} args */
export function ctrArgs(node, args) {
  return ['--address', node.paths.containerdSocket, '--namespace', CONTAINERD_NAMESPACE, ...args];
}

/**
 * Imports an OCI or Docker archive into every node's containerd.
 * @param {Binaries} binaries @param {string} archive
 */
export async function importArchive(binaries, archive) {
  for (const node of recordedNodes()) await run(builtBinary(binaries, 'ctr'), ctrArgs(node, ['images', 'import', archive]));
}

/**
 * @typedef {Record<string, string>} Binaries the cluster's binaries by name (tools/cluster-binaries.mjs)
 */

/** The names of the images a node's containerd holds (the first node's unless told). @param {Binaries} binaries */
export async function clusterImages(binaries, node = clusterNode(0)) {
  const { stdout } = await run(builtBinary(binaries, 'ctr'), ctrArgs(node, ['images', 'list', '--quiet']));
  return stdout.split('\n').filter(Boolean);
}

/** Builds and imports the pod sandbox, CoreDNS and metrics-server images from the binaries into a node's containerd. @param {Binaries} binaries @param {ClusterNode} node */
export async function importSystemImages(binaries, node) {
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
      {
        ref: SYSTEM_IMAGES.metricsServer,
        binary: builtBinary(binaries, 'metrics-server'),
        entrypoint: ['/metrics-server'],
        exposedPorts: ['10250/tcp'],
      },
      {
        ref: SYSTEM_IMAGES.prometheusAdapter,
        binary: builtBinary(binaries, 'adapter'),
        entrypoint: ['/adapter'],
        exposedPorts: ['6443/tcp'],
      },
    ];
    for (const image of images) {
      const archive = path.join(work, `${path.basename(image.binary)}.tar`);
      writeBinaryImage({ ...image, archive });
      await run(builtBinary(binaries, 'ctr'), ctrArgs(node, ['images', 'import', archive]));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Streams one `docker save <images>` into every node's containerd import at once;
 * rejects naming whichever side failed.
 * @param {Binaries} binaries
 * @param {string[]} images
 * @returns {Promise<void>}
 */
export function importDockerImages(binaries, images) {
  return new Promise((resolve, reject) => {
    const save = spawn('docker', ['save', ...images], { stdio: ['ignore', 'pipe', 'pipe'] });
    const loads = recordedNodes().map((node) =>
      spawn(builtBinary(binaries, 'ctr'), ctrArgs(node, ['images', 'import', '-']), { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    let errors = '';
    save.stderr.on('data', (chunk) => (errors += chunk));
    for (const load of loads) {
      save.stdout.pipe(load.stdin);
      // ctr dying mid-stream closes its stdin under the pipe: its exit code says why.
      load.stdin.on('error', () => {});
      load.stderr.on('data', (chunk) => (errors += chunk));
      load.on('error', (error) => {
        save.kill();
        reject(error);
      });
    }
    const exits = [save, ...loads].map((child) => new Promise((done) => child.on('close', done)));
    save.on('error', reject);
    Promise.all(exits).then(([saved, ...loaded]) => {
      if (saved === 0 && loaded.every((code) => code === 0)) return resolve();
      reject(
        new Error(
          `cluster: importing ${images.join(' ')} failed (docker save exited ${saved}, ctr import ${loaded.join(', ')}): ${errors.trim().split('\n').slice(-5).join(' / ')}`,
        ),
      );
    });
  });
}
