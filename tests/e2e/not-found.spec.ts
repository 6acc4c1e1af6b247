import { expect, test } from '@playwright/test';
import { rawGet } from './support/http';

const base = () => process.env.MERIDIAN_E2E_URL as string;

const LOCALES = [
  { prefix: '', lang: 'en', title: 'Page Not Found', message: 'Page not found: /no/such/page', home: '/' },
  { prefix: '/zh-CN', lang: 'zh-CN', title: '页面未找到', message: '页面未找到：/zh-CN/no/such/page', home: '/zh-CN' },
  { prefix: '/ja', lang: 'ja', title: 'ページが見つかりません', message: 'ページが見つかりません：/ja/no/such/page', home: '/ja' },
];

for (const locale of LOCALES) {
  test.describe(`not-found page in ${locale.lang}`, () => {
    const path = `${locale.prefix}/no/such/page`;

    test('answers 404 with its whole text in the server HTML', async () => {
      const response = await rawGet(base(), path);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toMatch(new RegExp(`<html [^>]*lang="${locale.lang}"`));
      expect(response.body).toContain(`<title>${locale.title}</title>`);
      expect(response.body).toContain(locale.message);
    });

    test('reads fully without JavaScript and leads home', async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(locale.title);
      await expect(page.getByText(locale.message)).toBeVisible();
      await expect(page.locator('header')).toHaveCount(0);
      await page.locator('main a').click();
      await expect(page).toHaveURL(new RegExp(`${locale.home === '/' ? '/' : locale.home}$`));
      await context.close();
    });
  });
}

test('a very long path is cut to 200 characters in the message', async () => {
  const response = await rawGet(base(), `/${'x'.repeat(5000)}`);
  expect(response.status).toBe(404);
  expect(response.body).toContain(`Page not found: /${'x'.repeat(199)}…`);
});

test('missing files get a plain 404, never the HTML page', async () => {
  for (const path of [
    '/missing.txt',
    '/missing.json',
    '/missing.xml',
    '/site.webmanifest',
    '/img/missing.png',
    '/_next/static/chunks/missing.js',
  ]) {
    const response = await rawGet(base(), path);
    expect(response.status, path).toBe(404);
    expect(response.headers['content-type'], path).not.toMatch(/html/);
    expect(response.body, path).not.toContain('<html');
  }
});

test('existing static files are served as they are', async () => {
  for (const [path, type] of [
    ['/robots.txt', /text\/plain/],
    ['/favicon.svg', /image\/svg\+xml/],
    ['/favicon.ico', /image\/(x-icon|vnd\.microsoft\.icon)/],
  ] as const) {
    const response = await rawGet(base(), path);
    expect(response.status, path).toBe(200);
    expect(response.headers['content-type'], path).toMatch(type);
  }
});
