// A one-binary image as an OCI image layout archive, made without a registry or a
// Docker engine: the cluster's own images (the pod sandbox, CoreDNS) are a static
// binary on an empty root file system, which is all `FROM scratch` would give.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSync } from '../lib/command.mjs';

const sha256 = (/** @type {Buffer} */ bytes) => createHash('sha256').update(bytes).digest('hex');
/** Node's names for the machine's architecture, in the spelling of OCI (and Go). @type {Partial<Record<NodeJS.Architecture, string>>} */
const GO_ARCH = { x64: 'amd64', arm64: 'arm64' };

/** Writes `bytes` as a content-addressed blob; returns its descriptor. @param {string} layoutDir @param {string} mediaType @param {Buffer} bytes */
function writeBlob(layoutDir, mediaType, bytes) {
  const digest = sha256(bytes);
  writeFileSync(path.join(layoutDir, 'blobs', 'sha256', digest), bytes);
  return { mediaType, digest: `sha256:${digest}`, size: bytes.length };
}

/**
 * Builds `ref` holding `binary` at /<name>, run as `entrypoint` by user `user`,
 * into an OCI archive at `archive`.
 * @param {{ ref: string, binary: string, entrypoint: string[], user?: string, exposedPorts?: string[], archive: string }} image
 */
export function writeBinaryImage({ ref, binary, entrypoint, user = '65534:65534', exposedPorts = [], archive }) {
  const work = mkdtempSync(path.join(tmpdir(), 'meridian-oci-'));
  try {
    const rootfs = path.join(work, 'rootfs');
    const layout = path.join(work, 'layout');
    mkdirSync(rootfs);
    mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true });
    copyFileSync(binary, path.join(rootfs, path.basename(binary)));
    // Reproducible layer: fixed owner and time, so the same binary gives the same digest.
    const layerTar = path.join(work, 'layer.tar');
    runSync('tar', [
      '--create',
      '--file',
      layerTar,
      '--directory',
      rootfs,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--mtime=@0',
      '--mode=0755',
      '.',
    ]);
    const layerBytes = readFileSync(layerTar);
    const layer = writeBlob(layout, 'application/vnd.oci.image.layer.v1.tar', layerBytes);
    const config = writeBlob(
      layout,
      'application/vnd.oci.image.config.v1+json',
      Buffer.from(
        JSON.stringify({
          architecture: GO_ARCH[process.arch] ?? process.arch,
          os: 'linux',
          config: { Entrypoint: entrypoint, User: user, ExposedPorts: Object.fromEntries(exposedPorts.map((port) => [port, {}])) },
          rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layerBytes)}`] },
        }),
      ),
    );
    const manifest = writeBlob(
      layout,
      'application/vnd.oci.image.manifest.v1+json',
      Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config, layers: [layer] })),
    );
    const annotations = { 'org.opencontainers.image.ref.name': ref, 'io.containerd.image.name': ref };
    writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [{ ...manifest, annotations }] }));
    writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
    runSync('tar', ['--create', '--file', archive, '--directory', layout, '.']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
