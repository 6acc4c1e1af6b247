import { expect, test, type Page } from '@playwright/test';
import { startApp } from '../../tools/lib/app-server.mjs';
import { TEST_BUILDS } from '../../tools/lib/builds.mjs';
import { freePort } from '../../tools/lib/ports.mjs';
import { randomSpread, switchableService } from '../support/release-services';
import { clientEvents } from './support/client-events';

// Two builds served side by side as during a canary release: A stable, B the canary, the
// release's Service sending each request of a tab to the next pod in turn, and stand-ins of
// the stable and canary Services that Argo Rollouts would move. Open tabs stay on the build
// they loaded while B is judged, and move once after a promotion or an abort.
test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ mode: 'serial' });

const { a: A, b: B } = TEST_BUILDS;
type Running = Awaited<ReturnType<typeof startApp>> & { port: number; metrics: string };
let servers: Record<'a' | 'b', Running>;
let services: Record<'stable' | 'canary', Awaited<ReturnType<typeof switchableService>>>;
let site: Awaited<ReturnType<typeof randomSpread>>;

/** Every build_update_detected reported to either server. */
const detections = async () =>
  (await clientEvents(servers.a.metrics, 'build_update_detected')) + (await clientEvents(servers.b.metrics, 'build_update_detected'));

/** Waits until the servers' (by default both) builds/latest.json say `expected`. */
async function releaseIs(expected: { id: string; canary?: string }, on: Running[] = Object.values(servers)) {
  for (const server of on) {
    await expect
      .poll(
        async () => {
          const { id, canary } = (await (await fetch(`${server.url}/builds/latest.json`)).json()) as { id: string; canary?: string };
          return { id, canary };
        },
        { timeout: 15_000 },
      )
      .toEqual(expected);
  }
}

/** A tab on the site that landed on `build` (reloading until the Service gives it that build). */
async function tabOn(page: Page, build: string) {
  let loaded = '';
  for (let attempt = 0; attempt < 12 && loaded !== build; attempt += 1) {
    // The document says its build (React drops the attribute from the live page once it hydrates).
    const html = (await (await page.goto(`${site.url}/`))?.text()) ?? '';
    loaded = /data-dpl-id="([^"]+)"/.exec(html)?.[1] ?? '';
  }
  expect(loaded).toBe(build);
  const watched = { documents: 0, pollServers: new Set<string>(), failedFiles: [] as string[] };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) watched.documents += 1;
  });
  page.on('response', (response) => {
    const url = response.url();
    if (url.includes('/builds/latest.json?')) watched.pollServers.add(response.headers()['x-served-by'] ?? '');
    if ((url.includes('/_next/static/') || url.includes('/builds/meta/')) && response.status() >= 400) watched.failedFiles.push(url);
  });
  return watched;
}

/**
 * Clicks the header's Rollouts link (a #section of the page), once the tab was told to move: a
 * full load, whose build it returns (null without one within 15 s: a CI run beside the cluster
 * suite saw none within 3). Before that, a click may still load the page in full when the
 * router's request meets a pod of the other build (Next's answer to a deployment id that
 * differs), so the tabs' staying is read from what they report instead.
 */
async function followRolloutsLink(page: Page) {
  const load = page.waitForEvent('request', { predicate: (request) => request.isNavigationRequest(), timeout: 15_000 }).catch(() => null);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
  const request = await load;
  return request ? ((await (await request.response())?.text())?.match(/data-dpl-id="([^"]+)"/)?.[1] ?? 'unknown') : null;
}

test.beforeAll(async () => {
  const ports = { a: await freePort(), b: await freePort() };
  services = { stable: await switchableService(ports.a), canary: await switchableService(ports.b) };
  const start = async (build: typeof A, port: number) => {
    const metricsPort = await freePort();
    const env = {
      METRICS_PORT: String(metricsPort),
      BUILD_POLL_INTERVAL_MS: '1000',
      SHUTDOWN_DELAY_MS: '0',
      STABLE_SERVICE_URL: services.stable.url,
      CANARY_SERVICE_URL: services.canary.url,
    };
    return { ...(await startApp({ port, entry: build.entry, env })), port, metrics: `http://127.0.0.1:${metricsPort}/metrics` };
  };
  const [a, b] = await Promise.all([start(A, ports.a), start(B, ports.b)]);
  servers = { a, b };
  site = await randomSpread([ports.a, ports.b]);
});

test.afterAll(async () => {
  await site?.close();
  await Promise.all(Object.values(servers ?? {}).map((server) => server.stop()));
  await Promise.all(Object.values(services ?? {}).map((service) => service.close()));
});

test('while the canary is judged every tab stays on its build; after promotion the stable tab moves once', async ({ context }) => {
  test.setTimeout(120_000);
  await releaseIs({ id: A.id, canary: B.id });
  const [stablePage, canaryPage] = [await context.newPage(), await context.newPage()];
  const stableTab = await tabOn(stablePage, A.id);
  const canaryTab = await tabOn(canaryPage, B.id);

  // Polls every second, answered by both builds' servers: no tab is told to move.
  await expect.poll(() => stableTab.pollServers.size + canaryTab.pollServers.size, { timeout: 15_000 }).toBe(4);
  await stablePage.waitForTimeout(3000);
  expect(await detections()).toBe(0);
  expect([stableTab.documents, canaryTab.documents]).toEqual([0, 0]);

  // Promotion: both Services on B, A's pods gone from the release's Service.
  services.stable.pointAt(servers.b.port);
  site.only([servers.b.port]);
  // (A, still running outside the Service, calls itself the canary: a pod draining after a promotion.)
  await releaseIs({ id: B.id, canary: undefined }, [servers.b]);
  await expect.poll(detections, { timeout: 15_000 }).toBe(1);
  expect(await followRolloutsLink(stablePage)).toBe(B.id);
  await canaryPage.waitForTimeout(3000);
  expect(await detections()).toBe(1);
  expect(canaryTab.documents).toBe(0);
  expect([...stableTab.failedFiles, ...canaryTab.failedFiles]).toEqual([]);
});

test('after an abort, a tab of the canary moves back to the stable build once', async ({ page }) => {
  test.setTimeout(120_000);
  services.stable.pointAt(servers.a.port);
  services.canary.pointAt(servers.b.port);
  site.only([servers.a.port, servers.b.port]);
  await releaseIs({ id: A.id, canary: B.id });
  const before = await detections();
  const canaryTab = await tabOn(page, B.id);
  await expect.poll(() => canaryTab.pollServers.size, { timeout: 15_000 }).toBe(2);
  expect(await detections()).toBe(before);

  // Abort: the canary Service back on A, B's pods gone.
  services.canary.pointAt(servers.a.port);
  site.only([servers.a.port]);
  await expect.poll(detections, { timeout: 15_000 }).toBe(before + 1);
  expect(await followRolloutsLink(page)).toBe(A.id);
  expect(canaryTab.failedFiles).toEqual([]);
});
