import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { freePort } from '../../tools/lib/ports.mjs';
import { loadPage } from '../../tools/telemetry-attack/requests.mjs';
import { PAGE_VIEW_TIMING, PAGE_VIEW_TOKEN_HEADER } from '@/shared/page-view-token';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';

// Browser signals count only from the site's own pages, with the page-view token the server
// gave each page (docs/security.md). Real Chromium, on both sides: our pages, and a hostile
// page of another origin that makes its visitors' browsers send beacons to us.
test.use({ viewport: { width: 1280, height: 800 } });

const METRICS_URL = process.env.MERIDIAN_E2E_METRICS_URL ?? '';

/** A series of the server's /metrics, summed over the labels not given. */
async function counter(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(METRICS_URL)).text();
  let total = 0;
  for (const [, labelText = '', value] of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm'))) {
    if (Object.entries(labels).every(([key, wanted]) => labelText.includes(`${key}="${wanted}"`))) total += Number(value);
  }
  return total;
}

test('a page reports with the token the server named in its Server-Timing, renewed by its build poll, and its reports count', async ({
  page,
}) => {
  const beacons: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === TELEMETRY_ENDPOINT) beacons.push(response.status());
  });
  const poll = page.waitForResponse((response) => response.url().includes('/builds/latest.json?'), { timeout: 15_000 });
  const before = await counter('meridian_client_events_total', { event: 'web_vital' });
  await page.goto('/zh-CN');
  const issued = await page.evaluate(
    (name) =>
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).serverTiming.find((entry) => entry.name === name)
        ?.description,
    PAGE_VIEW_TIMING,
  );
  expect(issued).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const polled = await poll;
  expect(await polled.request().headerValue(PAGE_VIEW_TOKEN_HEADER)).toBe(issued);
  const renewed = await polled.headerValue(PAGE_VIEW_TOKEN_HEADER);
  expect(renewed?.split('.')[0]).toBe(issued?.split('.')[0]);
  // Its web vitals (FCP, TTFB) go a few seconds after web-vitals arrives, past the load event,
  // with the renewed token (a beacon's Blob body is not shown to Playwright: the server judges).
  await expect.poll(() => beacons.length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(beacons.every((status) => status === 204)).toBe(true);
  await expect.poll(() => counter('meridian_client_events_total', { event: 'web_vital' })).toBeGreaterThan(before);
});

let hostile: Server;
let hostileUrl = '';

test.beforeAll(async () => {
  hostile = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>evil</title>'));
  const port = await freePort();
  await new Promise<void>((resolve) => hostile.listen(port, '127.0.0.1', resolve));
  // localhost against the site's 127.0.0.1: another site, not only another origin.
  hostileUrl = `http://localhost:${port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => hostile.close(resolve));
});

test("another site's page cannot make its visitors' browsers report for us, even with a real token", async ({ page, baseURL }) => {
  const site = baseURL ?? '';
  const { token } = await loadPage(site, { path: '/ja' });
  expect(token).toBeTruthy();
  const body = JSON.stringify({ token, events: [{ type: 'chunk_reload_blocked', reason: 'forged' }] });
  const before = {
    blocked: await counter('meridian_client_events_total', { event: 'chunk_reload_blocked' }),
    refused: await counter('meridian_telemetry_rejected_total', { reason: 'cross_site' }),
  };

  await page.goto(hostileUrl);
  const sent = await page.evaluate(
    async ({ endpoint, body }) => {
      // What a page can send another site without a CORS preflight: text/plain, as a beacon and as fetch.
      const beacon = navigator.sendBeacon(endpoint, body);
      await fetch(endpoint, { method: 'POST', mode: 'no-cors', body, headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
      // And JSON, which the browser first asks about (OPTIONS), and sends nothing when refused.
      const json = await fetch(endpoint, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }).then(
        () => 'sent',
        () => 'blocked by the browser',
      );
      return { beacon, json };
    },
    { endpoint: `${site}${TELEMETRY_ENDPOINT}`, body },
  );
  expect(sent).toEqual({ beacon: true, json: 'blocked by the browser' });

  await expect.poll(() => counter('meridian_telemetry_rejected_total', { reason: 'cross_site' })).toBe(before.refused + 2);
  expect(await counter('meridian_client_events_total', { event: 'chunk_reload_blocked' })).toBe(before.blocked);
});
