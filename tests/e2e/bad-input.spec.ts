import { expect, test } from '@playwright/test';
import { rawGet, staysOnSite } from './support/http';

const base = () => process.env.MERIDIAN_E2E_URL as string;

const BAD_PATHS = [
  `/${'a'.repeat(10_000)}`,
  '/%E0%A4%A',
  '/%',
  '/%00',
  '//evil.example',
  '/\\evil.example',
  '/en//evil.example',
  '/en/\\evil.example',
  '/ja//evil.example',
  '/<script>alert(1)</script>',
  '/..%2F..%2Fetc%2Fpasswd',
  '/ja/%F0%9F%98%80',
];

const BAD_HEADERS: Record<string, string>[] = [
  { 'Accept-Language': 'x'.repeat(12_000) },
  { 'Accept-Language': Array.from({ length: 1000 }, (_, i) => `l${i};q=0.${i % 9}`).join(',') },
  { 'Accept-Language': 'ja;q=abc' },
  { 'Accept-Language': ';;;,,,q=' },
  { Referer: 'not a url' },
  { Referer: '::::' },
  { Cookie: 'i18n_redirected=' },
  { Cookie: 'i18n_redirected=../../etc' },
  { Cookie: `i18n_redirected=${'z'.repeat(4096)}` },
  { Cookie: 'i18n_redirected=fr' },
  { Cookie: 'i18n_redirected=%E0%A4%A' },
];

test.describe('bad input never yields a 5xx or leaves the site', () => {
  for (const path of BAD_PATHS) {
    test(`path ${path.slice(0, 40)}`, async () => {
      const response = await rawGet(base(), path);
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(500);
      expect(staysOnSite(response.headers.location as string | undefined, base())).toBe(true);
      expect(response.body).not.toContain('<script>alert(1)</script>');
    });
  }

  for (const [index, headers] of BAD_HEADERS.entries()) {
    test(`headers #${index} ${Object.keys(headers)[0]}`, async () => {
      for (const path of ['/', '/ja', '/missing-page']) {
        const response = await rawGet(base(), path, headers);
        expect(response.status, path).toBeLessThan(500);
        expect(response.headers['set-cookie'] ?? '', path).not.toMatch(/\.\.|zzzz|fr|%E0/);
      }
    });
  }

  test('20 KB of Accept-Language is refused with a 4xx, not a crash', async () => {
    const response = await rawGet(base(), '/', { 'Accept-Language': 'g'.repeat(20_000) });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const after = await rawGet(base(), '/');
    expect(after.status).toBe(200);
  });

  test('a script in the path is rendered escaped on the not-found page', async () => {
    const response = await rawGet(base(), '/%3Cscript%3Ealert(1)%3C/script%3E');
    expect(response.status).toBe(404);
    expect(response.body).toContain('Page not found: /&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
