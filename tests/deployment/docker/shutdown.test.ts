import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridianImage, type MeridianImage } from '../support/docker-image';
import { runUntilExit, startMeridian, type RunningMeridian } from '../support/meridian-container';

const GRACE_PERIOD_S = 30;
const SHUTDOWN_DELAY_MS = 2000;

let image: MeridianImage;
const started: RunningMeridian[] = [];

beforeAll(async () => {
  image = await meridianImage();
});

afterAll(async () => {
  await Promise.all(started.map((app) => app.remove()));
});

async function status(url: string): Promise<number | null> {
  return fetch(url).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    () => null,
  );
}

describe('the container', () => {
  it('drains on SIGTERM (readiness off, serving on) and exits 0 within the grace period', async () => {
    const app = await startMeridian(image.name, { SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS) });
    started.push(app);
    const began = Date.now();
    // `docker stop`: the image's STOPSIGNAL, then SIGKILL once the grace period is over.
    const stopped = app.container.stop({ timeout: GRACE_PERIOD_S * 1000, remove: false });

    let readyz = await status(`${app.url}/readyz`);
    while (readyz === 200 && Date.now() - began < SHUTDOWN_DELAY_MS) readyz = await status(`${app.url}/readyz`);
    expect(readyz).toBe(503);
    expect(await status(`${app.url}/`)).toBe(200);

    await stopped;
    const elapsedMs = Date.now() - began;
    const { State } = await app.inspect();
    expect(State.ExitCode).toBe(0);
    expect(elapsedMs).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS);
    expect(elapsedMs).toBeLessThan(GRACE_PERIOD_S * 1000);
    const lines = (await app.finalOutput())
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; signal?: string; drained?: boolean });
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'Shutting down: draining', signal: 'SIGTERM' }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'Shutdown complete', drained: true }));
  });

  it('stops at start with exit code 1 and one line naming a bad setting', async () => {
    const { exitCode, output } = await runUntilExit(image.name, { METRICS_PORT: 'ninety' }, /^config: /);
    expect(exitCode).toBe(1);
    expect(output.trim().split('\n')).toEqual(['config: METRICS_PORT="ninety" is invalid: expected an integer from 1 to 65535']);
  });
});
