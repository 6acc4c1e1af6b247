// The app's images for the local cluster: meridian:<build id>, built from the
// Dockerfile on the local Node base (no registry here) as `npm run image` would,
// with fixed labels so an unchanged tree reuses every layer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureNodeBase } from '../node-base.mjs';
import { ROOT } from '../lib/app-server.mjs';
import { run } from '../lib/command.mjs';

/** The two builds a rollout on the cluster moves between; their ids are their image tags. */
export const CLUSTER_BUILDS = { a: 'cluster-a', b: 'cluster-b' };
export const IMAGE_REPOSITORY = 'meridian';

/**
 * Builds meridian:<id> for each build id; resolves with the image names. The build
 * stage is tagged too, so the deployment tests' pruning of stale stages leaves its layers.
 * @param {string[]} ids
 * @param {(line: string) => void} log
 */
export async function buildAppImages(ids, log) {
  const nodeImage = await ensureNodeBase();
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const images = [];
  for (const id of ids) {
    const args = Object.entries({ NODE_IMAGE: nodeImage, BUILD_ID: id, VERSION: version, CREATED: '2026-01-01T00:00:00Z' }).flatMap(
      ([name, value]) => ['--build-arg', `${name}=${value}`],
    );
    const image = `${IMAGE_REPOSITORY}:${id}`;
    log(`cluster: building ${image}`);
    await run('docker', ['build', '--target', 'build', '--tag', `meridian-build-stage:${id}`, ...args, ROOT]);
    await run('docker', ['build', '--tag', image, ...args, ROOT]);
    images.push(image);
  }
  return images;
}
