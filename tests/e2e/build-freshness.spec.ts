import { expect, test, type Page, type Response } from '@playwright/test';
import { startApp } from '../../tools/lib/app-server.mjs';
import { TEST_BUILDS } from '../../tools/lib/builds.mjs';
import { freePort } from '../../tools/lib/ports.mjs';
import { clientEvents } from './support/client-events';
import { slowDocumentLoads } from './support/slow-navigation';

test.use({ viewport: { width: 1280, height: 800 } });

const { a: BUILD_A, b: BUILD_B } = TEST_BUILDS;
const POLL_INTERVAL_MS = 1000;
const JITTERED = 1.1;
/** How long a poll answer and its beacon may take on a busy machine. */
const REPORT_MS = 5000;

/** Counts the tab's polls that found no server or no answer (those sent during a swap; reset before each). */
function countFailedPolls(page: Page): { failed: number } {
  const counter = { failed: 0 };
  const isPoll = (url: string) => url.includes('/builds/latest.json?');
  page.on('requestfailed', (request) => {
    if (isPoll(request.url())) counter.failed += 1;
  });
  page.on('response', (response) => {
    if (isPoll(response.url()) && !response.ok()) counter.failed += 1;
  });
  return counter;
}

type Build = typeof BUILD_A;

/** One origin whose server is replaced, as a rollout replaces a pod behind its Service. */
async function origin() {
  const port = await freePort();
  const metricsPort = await freePort();
  let running: Awaited<ReturnType<typeof startApp>> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    async serve(build: Build) {
      await running?.stop();
      running = await startApp({
        port,
        entry: build.entry,
        env: { METRICS_PORT: String(metricsPort), BUILD_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS), SHUTDOWN_DELAY_MS: '0' },
      });
    },
    /** How many `event`s browsers reported to the server running now. */
    clientEvents: (event: string) => clientEvents(`http://127.0.0.1:${metricsPort}/metrics`, event),
    async stop() {
      await running?.stop();
    },
  };
}

/**
 * Replaces the server with `build` and checks the tab's side: its first poll
 * to answer with the new id comes within the poller's schedule (one interval,
 * doubled per poll that failed during the swap, +10% jitter, plus one interval
 * of slack), and the tab reports the new build once. The reader's page is
 * settled first: the carousel's Swiper arrives a few seconds after load, and a
 * chunk that fails during the swap reloads the page by design (chunk-recovery.spec).
 */
async function swapAndDetect(page: Page, site: Origin, build: Build, polls: { failed: number }): Promise<void> {
  await page.locator('.swiper-initialized').waitFor({ timeout: 15_000 });
  polls.failed = 0;
  const newBuildAnswer = page.waitForResponse(
    async (response) =>
      response.url().includes('/builds/latest.json?') &&
      response.ok() &&
      ((await response.json().catch(() => null)) as { id?: string } | null)?.id === build.id,
    { timeout: 60_000 },
  );
  await site.serve(build);
  const servedAt = Date.now();
  await newBuildAnswer;
  const waitedMs = Date.now() - servedAt;
  const scheduleMs = POLL_INTERVAL_MS * JITTERED * (1 + 2 ** polls.failed) + POLL_INTERVAL_MS;
  expect(waitedMs, `first answer of the new build ${waitedMs} ms after it was served, ${polls.failed} polls failed`).toBeLessThanOrEqual(
    scheduleMs,
  );
  await expect.poll(() => site.clientEvents('build_update_detected'), { timeout: REPORT_MS }).toBe(1);
}

type Origin = Awaited<ReturnType<typeof origin>>;

function documentResponse(page: Page): Promise<Response> {
  return page.waitForResponse((response) => response.request().isNavigationRequest() && response.frame() === page.mainFrame());
}

async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { meridianMarker: 'set before' }));
}

async function windowMarker(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as Window & { meridianMarker?: string }).meridianMarker);
}

test('a new build reaches an open tab at its next navigation, and never under a reader', async ({ page }) => {
  test.setTimeout(90_000);
  const site = await origin();
  try {
    await site.serve(BUILD_A);
    const polls = countFailedPolls(page);
    const firstLoad = documentResponse(page);
    await page.goto(`${site.url}/`);
    expect(await (await firstLoad).text()).toContain(`data-dpl-id="${BUILD_A.id}"`);
    await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    await markWindow(page);
    let documentLoads = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentLoads += 1;
    });

    await swapAndDetect(page, site, BUILD_B, polls);
    // A reader is left alone: several more poll intervals, and the same document.
    await page.waitForTimeout(3 * POLL_INTERVAL_MS);
    expect(documentLoads).toBe(0);
    expect(await windowMarker(page)).toBe('set before');

    // A menu link (a #section of this very page) becomes a full load of build B.
    const menuLoad = documentResponse(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
    const menuDocument = await menuLoad;
    // Requests never carry the #fragment: the page's URL does.
    expect(menuDocument.url()).toBe(`${site.url}/`);
    expect(await menuDocument.text()).toContain(`data-dpl-id="${BUILD_B.id}"`);
    await expect(page).toHaveURL(`${site.url}/#rollouts`);
    expect(await windowMarker(page)).toBeUndefined();

    // The roll back to A: switching language becomes a full load, and still remembers the choice.
    await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    await markWindow(page);
    await swapAndDetect(page, site, BUILD_A, polls);
    const switchLoad = documentResponse(page);
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menu', { name: 'Choose a language' }).getByRole('menuitemradio', { name: '日本語' }).click();
    const switchDocument = await switchLoad;
    expect(new URL(switchDocument.url()).pathname).toBe('/ja');
    expect(await switchDocument.text()).toContain(`data-dpl-id="${BUILD_A.id}"`);
    expect(await windowMarker(page)).toBeUndefined();
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'i18n_redirected')?.value).toBe('ja');

    // Back and forward: a move within the page (its history entry is the same
    // document) once a new build is out reloads the entry the browser moved to.
    await page.getByRole('navigation', { name: 'メインナビゲーション' }).getByRole('link', { name: '機能' }).click();
    await expect(page).toHaveURL(`${site.url}/ja#features`);
    await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    await markWindow(page);
    await swapAndDetect(page, site, BUILD_B, polls);
    const backLoad = documentResponse(page);
    await page.goBack();
    const backDocument = await backLoad;
    expect(new URL(backDocument.url()).pathname).toBe('/ja');
    expect(await backDocument.text()).toContain(`data-dpl-id="${BUILD_B.id}"`);
    expect(await windowMarker(page)).toBeUndefined();
  } finally {
    await site.stop();
  }
});

test('a build that stays the same never reloads the page', async ({ page }) => {
  const site = await origin();
  try {
    await site.serve(BUILD_A);
    await page.goto(`${site.url}/ja`);
    await markWindow(page);
    for (let polls = 0; polls < 3; polls += 1) {
      await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    }
    expect(await windowMarker(page)).toBe('set before');
    expect(await site.clientEvents('build_update_detected')).toBe(0);
  } finally {
    await site.stop();
  }
});

test('the full load leaves the history as the client navigation would have', async ({ page }) => {
  test.setTimeout(60_000);
  const site = await origin();
  try {
    await site.serve(BUILD_A);
    const polls = countFailedPolls(page);
    await page.goto(`${site.url}/`);
    await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    await swapAndDetect(page, site, BUILD_B, polls);
    // The router's own moves (its history entry, Next's hard navigation once the new build
    // answers its payload request) come while the full load is under way.
    await slowDocumentLoads(page, 1500);

    const menuLoad = documentResponse(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
    expect(await (await menuLoad).text()).toContain(`data-dpl-id="${BUILD_B.id}"`);
    await expect(page).toHaveURL(`${site.url}/#rollouts`);
    // One entry for the move: back leads to the page before it, not to a second #rollouts.
    await page.goBack();
    await expect(page).toHaveURL(`${site.url}/`);
  } finally {
    await site.stop();
  }
});
