import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { gitRevision } from '../../../src/build/build-identity.mjs';
import { run } from '../../../tools/lib/command.mjs';
import { meridianImage, type MeridianImage } from '../support/docker-image';
import { withFileLock } from '../support/file-lock';
import { startMeridian, type RunningMeridian } from '../support/meridian-container';

// A registry on a closed loopback port: the pull fails at once, offline or not.
const UNPULLABLE = '127.0.0.1:9/meridian/node:missing';
const revision = gitRevision(ROOT);
const tag = `meridian:${revision.slice(0, 12)}`;

let testImage: MeridianImage;
let app: RunningMeridian | undefined;

beforeAll(async () => {
  // The engine, the local base and a warm layer cache.
  testImage = await meridianImage();
});

afterAll(async () => {
  await app?.remove();
  const client = await getContainerRuntimeClient();
  await client.container.dockerode
    .getImage(tag)
    .remove()
    .catch(() => {});
});

async function labels(name: string): Promise<Record<string, string>> {
  const client = await getContainerRuntimeClient();
  return (await client.image.inspect(ImageName.fromString(name))).Config.Labels ?? {};
}

describe('npm run image', () => {
  it('without BUILD_ID and with an unpullable NODE_IMAGE, builds meridian:<commit> on the local base', async () => {
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    const { stdout } = await withFileLock('meridian-docker-image', () =>
      run('npm', ['run', 'image'], { cwd: ROOT, env: { ...process.env, BUILD_ID: '', NODE_IMAGE: UNPULLABLE } }),
    );
    expect(stdout).toContain(`${UNPULLABLE} cannot be pulled`);
    expect(stdout).toContain(`image: built ${tag}`);

    const built = await labels(tag);
    const base = await labels(testImage.nodeImage);
    expect(built['io.meridian.node-base.recipe']).toMatch(/^[0-9a-f]{16}$/);
    expect(built['io.meridian.node-base.recipe']).toBe(base['io.meridian.node-base.recipe']);
    expect(built['org.opencontainers.image.revision']).toBe(revision);

    app = await startMeridian(tag);
    const metrics = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^meridian_build_info\\{build_id="${revision.slice(0, 12)}"`, 'm'));
  });
});
