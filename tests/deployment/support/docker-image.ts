import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
import { ensureNodeBase } from '../../../tools/node-base.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { gitRevision } from '../../../src/build/build-identity.mjs';
import { run } from '../../../tools/lib/command.mjs';
import { ensureDockerEngine } from '../../../tools/docker-engine.mjs';
import { withFileLock } from './file-lock';

// Ryuk, testcontainers' reaper, is an image from a registry this machine cannot
// reach; the tests remove what they start themselves.
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';

export const TEST_IMAGE = 'meridian:docker-test';
const BUILD_STAGE_IMAGE = 'meridian-build-stage:docker-test';

export interface MeridianImage {
  name: string;
  /** The local Node base it was built on. */
  nodeImage: string;
  buildArgs: Record<string, string>;
}

async function imageId(name: string): Promise<string | null> {
  const client = await getContainerRuntimeClient();
  return client.image.inspect(ImageName.fromString(name)).then(
    (info) => info.Id,
    () => null,
  );
}

async function removeImage(id: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  // Still used by a running container: a later run removes it.
  await client.container.dockerode
    .getImage(id)
    .remove()
    .catch(() => {});
}

/**
 * The classic builder keeps each source state's build stage as an untagged
 * image (about a gigabyte). The current one is tagged, so its layers stay
 * cached; the others are pruned, so runs do not fill the disk.
 */
async function pruneStaleBuildStages(): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.container.dockerode.pruneImages({ filters: { dangling: ['true'], label: ['io.meridian.stage=build'] } });
}

async function build(buildArgs: Record<string, string>): Promise<void> {
  const previous = await imageId(TEST_IMAGE);
  const args = Object.entries(buildArgs).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);
  // The docker CLI, as users and `npm run image` build: testcontainers' own build
  // sends a context whose layers never match theirs, so nothing would be shared.
  // The build stage is tagged too, so its layers survive the pruning below.
  await run('docker', ['build', '--target', 'build', '--tag', BUILD_STAGE_IMAGE, ...args, ROOT]);
  await run('docker', ['build', '--tag', TEST_IMAGE, ...args, ROOT]);
  // New sources make a new image: the old one would linger untagged.
  const current = await imageId(TEST_IMAGE);
  if (previous && previous !== current) await removeImage(previous);
  await pruneStaleBuildStages();
}

/** The local Node base image (no registry here), on a running engine: both made when missing. */
export async function localNodeBase(): Promise<string> {
  return withFileLock('meridian-docker-image', async () => {
    await ensureDockerEngine();
    return ensureNodeBase();
  });
}

/**
 * The image under test, built from the Dockerfile on the local Node base (no
 * registry here) by the first test file that asks; for the others, and for later
 * runs on the same sources, every layer comes from the engine's cache. Installs
 * and starts the Docker engine when missing.
 */
export async function meridianImage(): Promise<MeridianImage> {
  const nodeImage = await localNodeBase();
  return withFileLock('meridian-docker-image', async () => {
    const revision = gitRevision(ROOT);
    const buildArgs = {
      NODE_IMAGE: nodeImage,
      BUILD_ID: 'docker-test',
      REVISION: revision === 'unknown' ? '' : revision,
      VERSION: (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
      SOURCE: 'https://git.example/meridian.git',
      // Fixed, unlike `npm run image`'s: every test file asking gets the same image,
      // never one re-tagged under another file's running containers.
      CREATED: '2026-01-01T00:00:00Z',
    };
    await build(buildArgs);
    return { name: TEST_IMAGE, nodeImage, buildArgs };
  });
}
