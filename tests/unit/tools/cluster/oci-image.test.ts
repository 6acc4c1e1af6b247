import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { writeBinaryImage } from '../../../../tools/cluster/oci-image.mjs';
import { runSync } from '../../../../tools/lib/command.mjs';

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

test('writeBinaryImage makes an OCI layout whose index, manifest, config and layer agree by digest', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'oci-image-test-'));
  const binary = path.join(dir, 'hello');
  writeFileSync(binary, '#!/bin/sh\necho hello\n', { mode: 0o755 });
  const archive = path.join(dir, 'image.tar');
  writeBinaryImage({ ref: 'meridian.local/hello:1', binary, entrypoint: ['/hello'], exposedPorts: ['53/udp'], archive });

  const layout = path.join(dir, 'layout');
  runSync('mkdir', [layout]);
  runSync('tar', ['-xf', archive, '-C', layout]);
  const blob = (digest: string) => readFileSync(path.join(layout, 'blobs', 'sha256', digest.replace('sha256:', '')));
  const index = JSON.parse(readFileSync(path.join(layout, 'index.json'), 'utf8'));
  const [entry] = index.manifests;
  expect(entry.annotations['io.containerd.image.name']).toBe('meridian.local/hello:1');
  const manifest = JSON.parse(blob(entry.digest).toString());
  expect(sha256(blob(entry.digest))).toBe(entry.digest);
  const config = JSON.parse(blob(manifest.config.digest).toString());
  expect(config.config).toEqual({ Entrypoint: ['/hello'], User: '65534:65534', ExposedPorts: { '53/udp': {} } });
  const [layer] = manifest.layers;
  expect(sha256(blob(layer.digest))).toBe(layer.digest);
  expect(config.rootfs.diff_ids).toEqual([layer.digest]);
  // The layer holds the binary at the root, executable, owned by root.
  const listing = runSync('tar', ['-tvf', path.join(layout, 'blobs', 'sha256', layer.digest.replace('sha256:', ''))]).stdout;
  expect(listing).toMatch(/-rwxr-xr-x 0\/0 .* \.\/hello/);
});
