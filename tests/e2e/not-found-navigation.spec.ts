import { expect, test, type ConsoleMessage } from '@playwright/test';
import { waitForHydration } from './support/hydration';

// A client navigation to a page the site lacks: the server answers the router's request with a
// plain 404 from memory (no render), Next's router loads the URL in full, and that page load is
// the not-found page from its template. The visitor sees the localized 404 and nothing goes wrong.

type NextWindow = Window & { next?: { router?: { push(href: string): void } } };

const CASES = [
  { from: '/ja', to: '/ja/no/such/page', title: 'ページが見つかりません', message: 'ページが見つかりません：/ja/no/such/page', lang: 'ja' },
  { from: '/zh-CN', to: '/zh-CN/gone?ref=nav', title: '页面未找到', message: '页面未找到：/zh-CN/gone', lang: 'zh-CN' },
  { from: '/', to: '/missing', title: 'Page Not Found', message: 'Page not found: /missing', lang: 'en' },
];

/** Console errors and uncaught exceptions, but not the browser's own line for an HTTP error status, which a 404 must have. */
function watchErrors(page: import('@playwright/test').Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of 404/.test(message.text())) return;
    errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return errors;
}

for (const { from, to, title, message, lang } of CASES) {
  test(`a client navigation from ${from} to ${to} shows the localized 404, with no console error`, async ({ page }) => {
    const errors = watchErrors(page);
    const routerRequests: { url: string; status: number; contentType: string }[] = [];
    page.on('response', (response) => {
      if (response.request().headers().rsc === '1' && new URL(response.url()).pathname === to.split('?')[0]) {
        routerRequests.push({ url: response.url(), status: response.status(), contentType: response.headers()['content-type'] ?? '' });
      }
    });
    await page.goto(from);
    await waitForHydration(page, 'header a');
    const documentLoad = page.waitForResponse((response) => response.request().isNavigationRequest() && response.url().endsWith(to));
    await page.evaluate((href) => (window as NextWindow).next?.router?.push(href), to);

    expect((await documentLoad).status()).toBe(404);
    await expect(page).toHaveURL(new RegExp(`${to.replace(/[?]/g, '\\?')}$`));
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText(message)).toBeVisible();
    // The router asked first, and got the plain 404 that sends it to a full load.
    expect(routerRequests.map((request) => [request.status, request.contentType])).toEqual([[404, 'text/plain; charset=utf-8']]);
    // The page hydrates: its home link is React's.
    await waitForHydration(page, 'main a');
    expect(errors).toEqual([]);
  });
}

test('a 404 with a 4 KiB query, from memory, hydrates with no console error', async ({ page }) => {
  const errors = watchErrors(page);
  const response = await page.goto(`/ja/no/such/page?q=${'x'.repeat(4096)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
  await waitForHydration(page, 'main a');
  await page.locator('main a').click();
  await expect(page).toHaveURL(/\/ja$/);
  expect(errors).toEqual([]);
});
