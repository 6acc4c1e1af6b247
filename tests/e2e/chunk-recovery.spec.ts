import { expect, test, type Page } from '@playwright/test';
import { clientEvents } from './support/client-events';

test.use({ viewport: { width: 1280, height: 800 } });

/** Events reported to the suite's server (tests in other files report to it too: compare counts). */
const appEvents = (event: string) => clientEvents(process.env.MERIDIAN_E2E_METRICS_URL as string, event);

/** Chunks requested within this long of each other belong to the same wave of loading. */
const CHUNK_QUIET_MS = 1000;

/**
 * Opens `path` and then fails every script chunk the page had not requested by
 * the time it settled (the background work's code, half a second after the load
 * event and an idle moment, included): the chunk of the carousel's Swiper runtime,
 * which loads on demand, is one of them. Settled means no chunk requested for
 * CHUNK_QUIET_MS after the load event, not network idle: on a loaded machine the
 * page's beacons and prefetches kept the network busy until Swiper's own idle load
 * (3 s after the load event and an idle moment) had begun.
 */
async function openThenFailLaterChunks(page: Page, path: string): Promise<{ aborted: () => number }> {
  const settled = new Set<string>();
  let armed = false;
  let aborted = 0;
  let lastChunkAt = Date.now();
  await page.route('**/_next/static/chunks/**', async (route) => {
    const url = route.request().url();
    if (armed && !settled.has(url)) {
      aborted += 1;
      await route.abort('failed');
      return;
    }
    if (!armed) {
      settled.add(url);
      lastChunkAt = Date.now();
    }
    await route.continue();
  });
  await page.goto(path);
  const loadedAt = Date.now();
  await expect.poll(() => Date.now() - Math.max(lastChunkAt, loadedAt), { intervals: [100] }).toBeGreaterThanOrEqual(CHUNK_QUIET_MS);
  armed = true;
  return { aborted: () => aborted };
}

test('a chunk that fails to load reloads the page once; failing again within 10 s shows the error page', async ({ page }) => {
  const reloadsBefore = await appEvents('chunk_reload');
  const blockedBefore = await appEvents('chunk_reload_blocked');
  let loads = 0;
  page.on('load', () => (loads += 1));
  const chunks = await openThenFailLaterChunks(page, '/');

  const reloaded = page.waitForEvent('load');
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await reloaded;
  expect(chunks.aborted()).toBeGreaterThanOrEqual(1);
  expect(loads).toBe(2);
  await expect.poll(() => appEvents('chunk_reload')).toBe(reloadsBefore + 1);

  // Still within the guard's 10 s: the same failure shows the error page instead of reloading again.
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  await expect.poll(() => appEvents('chunk_reload_blocked')).toBe(blockedBefore + 1);
  await page.waitForTimeout(1000);
  expect(loads).toBe(2);
});

test("a chunk that fails while the site does not answer reloads only once the site answers again, never into the browser's offline page", async ({
  page,
}) => {
  let loads = 0;
  page.on('load', () => (loads += 1));
  // The site "restarts": the page's own URL refuses connections for the first two probes.
  const pageUrl = new URL('/', process.env.MERIDIAN_E2E_URL).href;
  let probes = 0;
  await page.route(pageUrl, async (route) => {
    if (route.request().method() !== 'HEAD') return route.continue();
    probes += 1;
    return probes <= 2 ? route.abort('connectionrefused') : route.continue();
  });
  await openThenFailLaterChunks(page, '/');
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  const reloaded = page.waitForEvent('load');
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await reloaded;
  expect(probes).toBe(3);
  expect(loads).toBe(2);
  expect(visited.filter((url) => url !== pageUrl)).toEqual([]);
});

test('without session storage the page still works, and a failing chunk shows the error page rather than reload in a loop', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'sessionStorage', {
      get() {
        throw new DOMException('storage is disabled', 'SecurityError');
      },
    });
  });
  let loads = 0;
  page.on('load', () => (loads += 1));
  await openThenFailLaterChunks(page, '/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  expect(loads).toBe(1);
});
