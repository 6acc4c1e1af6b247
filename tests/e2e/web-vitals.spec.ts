import { expect, test, type Route } from '@playwright/test';

test.use({ viewport: { width: 1280, height: 800 } });

/** A string only web-vitals' own code holds (its bfcache restore handling). */
const WEB_VITALS_MARK = 'back-forward-cache';

test("web-vitals arrives after the load event, and still reports the page view's LCP, CLS and INP", async ({ page }) => {
  const reported = new Set<string>();
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/telemetry')) return;
    const body = JSON.parse(request.postData() ?? '{}') as { events?: { type: string; name?: string }[] };
    for (const event of body.events ?? []) if (event.type === 'web_vital' && event.name) reported.add(event.name);
  });
  // web-vitals' chunk is held until the visitor has interacted: everything it reports
  // then comes from entries the browser buffered before it ran.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let webVitalsUrl: string | null = null;
  await page.route(
    (url) => url.pathname.startsWith('/_next/static/chunks/') && url.pathname.endsWith('.js'),
    async (route: Route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes(WEB_VITALS_MARK)) {
        webVitalsUrl = route.request().url();
        await released;
      }
      await route.fulfill({ response, body });
    },
  );

  await page.goto('/ja', { waitUntil: 'commit' });
  // Were web-vitals part of the first load, held back it would hold the load event too.
  await page.waitForFunction(() => document.readyState === 'complete', null, { timeout: 15_000 });
  await expect.poll(() => webVitalsUrl, { message: 'web-vitals is requested once the page has loaded' }).not.toBeNull();
  const languageButton = page.getByRole('button', { name: '言語：日本語' });
  await languageButton.click();
  await page.keyboard.press('Escape');

  release();
  const url = webVitalsUrl as unknown as string;
  await page.waitForFunction((chunk) => performance.getEntriesByName(chunk).length > 0, url);
  const requestedAfterLoad = await page.evaluate((chunk) => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const entry = performance.getEntriesByName(chunk)[0];
    return entry !== undefined && navigation !== undefined && entry.startTime >= navigation.loadEventStart;
  }, url);
  expect(requestedAfterLoad).toBe(true);
  // Its observers read the buffered entries once its code has run; LCP is final at the
  // visitor's next input, which web-vitals only believes from a real (trusted) event.
  await page.waitForTimeout(500);
  await page.keyboard.press('Shift');

  // What a visitor leaving the tab does: the page turns hidden.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
  await expect.poll(() => [...reported].sort(), { timeout: 10_000 }).toEqual(expect.arrayContaining(['CLS', 'INP', 'LCP']));
  // A chunk's handler still reading its response when the page closes would fail the worker
  // after the test ("Response has been disposed", seen in CI on a busy machine).
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
