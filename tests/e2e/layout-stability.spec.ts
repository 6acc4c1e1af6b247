import { expect, test } from '@playwright/test';
import { recordLayoutShiftsFromStart, recordedLayoutShifts } from './support/layout-shifts';
import { startPiecewiseProxy } from './support/piecewise-proxy';
import { throttle } from './support/throttling';

/**
 * Nothing on the page moves while it arrives. Under Lighthouse's mobile throttling a page
 * shifted now and then: the browser had painted the document half-parsed, and what came
 * next pushed what it had painted. Here every document arrives cut before each start tag
 * of its first screen, so the browser paints at every place a slow network could stop,
 * with the CPU and network throttled as Lighthouse throttles them.
 */
const PAGES = ['/', '/ja', '/zh-CN'];
const VIEWPORTS = [
  { name: 'a phone', width: 412, height: 823 },
  { name: 'a desktop', width: 1280, height: 800 },
];
/** Past the header, the carousel and the first section of every locale's HTML body. */
const FIRST_SCREEN_CHARS = 9_000;
/** Long enough for a throttled renderer to paint between two pieces. */
const PAUSE_MS = 40;

let proxy: Awaited<ReturnType<typeof startPiecewiseProxy>>;

test.beforeAll(async ({ baseURL }) => {
  proxy = await startPiecewiseProxy(baseURL as string, { firstScreenChars: FIRST_SCREEN_CHARS, pauseMs: PAUSE_MS });
});

test.afterAll(async () => {
  await proxy.close();
});

for (const viewport of VIEWPORTS) {
  for (const path of PAGES) {
    test(`${path} on ${viewport.name}: no layout shift while the page arrives, under CPU and network throttling`, async ({ browser }) => {
      test.setTimeout(60_000);
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await throttle(page);
      await recordLayoutShiftsFromStart(page);
      await page.goto(proxy.url + path, { waitUntil: 'load', timeout: 45_000 });
      // Hydration, and what runs once the page has loaded, may move nothing either.
      await page.waitForTimeout(1_000);
      expect(await recordedLayoutShifts(page)).toEqual([]);
      await context.close();
    });
  }
}
