import { chromium, expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/debian-packages.mjs';
import { startApp } from '../../tools/lib/app-server.mjs';
import { freePort } from '../../tools/lib/ports.mjs';

// The canary analysis divides the failures pages report by the page loads their build's pods
// answered to browsers (meridian_page_loads_total): counted by the server, so a page whose
// chunks all fail, and which reports nothing of its load, still counts.

let site: { url: string; pageLoads: () => Promise<number>; stop: () => Promise<unknown> };

test.beforeAll(async () => {
  const port = await freePort();
  const metricsPort = await freePort();
  const app = await startApp({ port, env: { METRICS_PORT: String(metricsPort) } });
  site = {
    url: app.url,
    async pageLoads() {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return Number(/^meridian_page_loads_total (\d+)$/m.exec(text)?.[1]);
    },
    stop: app.stop,
  };
});

test.afterAll(async () => {
  await site.stop();
});

test("a browser's page loads are counted by the server, other clients' requests are not, and a page whose chunks fail still counts", async ({
  page,
}) => {
  expect(await site.pageLoads()).toBe(0);
  await page.goto(`${site.url}/ja`);
  await expect.poll(() => site.pageLoads()).toBe(1);
  await page.reload();
  await expect.poll(() => site.pageLoads()).toBe(2);

  // A script's request (a load generator's, a probe's) sends no Sec-Fetch-Dest.
  expect((await fetch(`${site.url}/ja`)).status).toBe(200);
  expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
  expect(await site.pageLoads()).toBe(2);

  await page.route('**/_next/static/chunks/**', (route) => route.abort('failed'));
  await page.goto(`${site.url}/zh-CN`);
  await expect.poll(() => site.pageLoads()).toBeGreaterThanOrEqual(3);
});

test('over plain HTTP to a host that is not localhost, a page load without Fetch Metadata (sent only to secure origins) still counts', async () => {
  // The name resolves to loopback in this browser only: an origin no browser trusts as secure.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP meridian.test 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const before = await site.pageLoads();
    const navigation = page.waitForRequest((request) => request.isNavigationRequest());
    await page.goto(`${site.url.replace('127.0.0.1', 'meridian.test')}/ja`);
    const headers = await (await navigation).allHeaders();
    expect(headers).not.toHaveProperty('sec-fetch-dest');
    expect(headers['upgrade-insecure-requests']).toBe('1');
    await expect.poll(() => site.pageLoads()).toBe(before + 1);
  } finally {
    await browser.close();
  }
});
