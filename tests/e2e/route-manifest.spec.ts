import { expect, test, type Request, type Route } from '@playwright/test';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';
import { buildFileFailures, clientEvents } from './support/client-events';

test.use({ viewport: { width: 1280, height: 800 } });

/** A router payload request (next/link or router.prefetch): the page's path and whether it is a prefetch. */
function payloadRequest(request: Request): { path: string; prefetch: boolean } | null {
  const url = new URL(request.url());
  const headers = request.headers();
  if (!url.searchParams.has('_rsc') && headers.rsc === undefined) return null;
  return {
    path: url.pathname,
    prefetch: headers['next-router-prefetch'] !== undefined || headers['next-router-segment-prefetch'] !== undefined,
  };
}

test('the route manifest is fetched about a second after the page is idle, once', async ({ page }) => {
  const manifests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/builds/meta/')) manifests.push(request.url());
  });
  await page.goto('/ja');
  const manifest = await page.waitForRequest((request) => request.url().includes('/builds/meta/'));
  expect(new URL(manifest.url()).pathname).toBe('/builds/meta/e2e-a.json');
  // The page's resource timing lists the request once its answer is in; its clock starts with the navigation.
  const startedAt = () =>
    page.evaluate(() => performance.getEntriesByType('resource').find((entry) => entry.name.includes('/builds/meta/'))?.startTime);
  await expect.poll(startedAt).toBeDefined();
  // The page waits for idle, then one more second.
  expect(await startedAt()).toBeGreaterThanOrEqual(1000);
  await page.waitForTimeout(1500);
  expect(manifests).toHaveLength(1);
});

for (const [name, connection] of [
  ['a slow-2g connection', { effectiveType: 'slow-2g', saveData: false }],
  ['Save-Data', { effectiveType: '4g', saveData: true }],
] as const) {
  test(`neither the route manifest nor payloads are fetched on ${name}`, async ({ page }) => {
    await page.addInitScript((value) => {
      Object.defineProperty(navigator, 'connection', { get: () => value });
    }, connection);
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/builds/meta/')) fetched.push(request.url());
      if (payloadRequest(request)) fetched.push(request.url());
    });
    // This page links to a prerendered page of its locale (/ja), which would otherwise be prefetched.
    await page.goto('/ja/e2e-fixtures/crash');
    // The first poll leaves at the moment the manifest would: once it is seen, the manifest would have been too.
    await page.waitForRequest((request) => request.url().includes('/builds/latest.json?'));
    await page.waitForTimeout(1000);
    expect(fetched).toEqual([]);
  });
}

for (const [page, locale, home] of [
  ['/e2e-fixtures/crash', 'en', '/'],
  ['/ja/e2e-fixtures/crash', 'ja', '/ja'],
] as const) {
  test(`${page} prefetches the payloads of the prerendered pages it links to in ${locale}, after the manifest, and no other`, async ({
    page: tab,
  }) => {
    const events: string[] = [];
    tab.on('request', (request) => {
      if (request.url().includes('/builds/meta/')) events.push('manifest');
      const payload = payloadRequest(request);
      if (payload) events.push(`payload ${payload.path}`);
    });
    await tab.goto(page);
    await expect.poll(() => events).toContain(`payload ${home}`);
    await tab.waitForTimeout(1000);
    expect(events[0]).toBe('manifest');
    // Only the home page of this locale: the language links lead to other locales, this page is no prerendered one.
    expect(new Set(events.slice(1))).toEqual(new Set([`payload ${home}`]));
  });
}

/** Events reported to the suite's server (tests in other files report to it too: compare counts). */
const appEvents = (event: string) => clientEvents(process.env.MERIDIAN_E2E_METRICS_URL as string, event);

const answered503 = (route: Route) => route.fulfill({ status: 503, body: 'unavailable' });
const manifestPath = (url: URL) => url.pathname.startsWith('/builds/meta/');

for (const [kind, event, failing, answer] of [
  ['the route manifest', 'manifest_fetch_failed', manifestPath, answered503],
  // No answer at all (status 0), while the page stays: reported a moment later.
  ['the route manifest, refused,', 'manifest_fetch_failed', manifestPath, (route: Route) => route.abort('connectionrefused')],
  ['a payload prefetch', 'payload_fetch_failed', (url: URL) => url.searchParams.has('_rsc'), answered503],
] as const) {
  test(`${kind} failing is reported, and the visitor sees nothing of it`, async ({ page }) => {
    const before = await appEvents(event);
    await page.route(failing, answer);
    const failed = page.waitForRequest((request) => failing(new URL(request.url())));
    // Reports leave in a batch a few seconds after the first: waiting for that beacon, not for a
    // fixed time, holds on a loaded machine where the failed answer itself is handled late.
    const reported = page.waitForRequest(
      (request) => new URL(request.url()).pathname === TELEMETRY_ENDPOINT && (request.postData() ?? '').includes(`"${event}"`),
      { timeout: 30_000 },
    );
    await page.goto('/e2e-fixtures/crash');
    await failed;
    await expect(page.getByRole('button', { name: 'Crash with 503' })).toBeVisible();
    // A beacon the server refused (429 from the per-address limit, 400) is never counted: say so.
    const beaconAnswer = await (await reported).response();
    expect(beaconAnswer?.status()).toBe(204);
    await expect.poll(() => appEvents(event), { timeout: 10_000 }).toBeGreaterThan(before);
  });
}

test('a manifest fetch the browser cancels as the visitor leaves the page is not reported as a failure', async ({ page }) => {
  // Only the tests above, run before this one in this file, make a manifest fetch fail on purpose.
  const before = await buildFileFailures(process.env.MERIDIAN_E2E_METRICS_URL as string, 'manifest');
  // The manifest's answer never comes: the visitor leaves while it is on its way, and the
  // browser rejects the fetch after the page's pagehide (a beacon then still leaves).
  await page.route(
    (url) => url.pathname.startsWith('/builds/meta/'),
    () => {},
  );
  const manifestAsked = page.waitForRequest((request) => request.url().includes('/builds/meta/'));
  await page.goto('/e2e-fixtures/crash');
  await manifestAsked;
  // A beacon of the next page (its load's web vitals) leaves after any of the page left.
  const nextPageReported = page.waitForRequest((request) => new URL(request.url()).pathname === TELEMETRY_ENDPOINT, {
    timeout: 30_000,
  });
  await page.goto('/ja/e2e-fixtures/crash');
  await nextPageReported;
  await page.waitForTimeout(1000);
  expect(await buildFileFailures(process.env.MERIDIAN_E2E_METRICS_URL as string, 'manifest')).toBe(before);
});
