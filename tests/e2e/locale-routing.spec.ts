import { expect, test } from '@playwright/test';
import { rawGet } from './support/http';

const base = () => process.env.MERIDIAN_E2E_URL as string;

test.describe('root detection', () => {
  const cases: [string, Record<string, string>, number, string | null][] = [
    ['no preference', {}, 200, null],
    ['ja-JP', { 'Accept-Language': 'ja-JP,ja;q=0.9,en;q=0.8' }, 307, '/ja'],
    ['zh-Hans', { 'Accept-Language': 'zh-Hans' }, 307, '/zh-CN'],
    ['zh', { 'Accept-Language': 'zh' }, 307, '/zh-CN'],
    ['en-GB', { 'Accept-Language': 'en-GB,ja;q=0.5' }, 200, null],
    ['q-values', { 'Accept-Language': 'en;q=0.4, ja;q=0.8' }, 307, '/ja'],
    ['cookie beats Accept-Language', { Cookie: 'i18n_redirected=zh-CN', 'Accept-Language': 'ja' }, 307, '/zh-CN'],
    ['English cookie beats Accept-Language', { Cookie: 'i18n_redirected=en', 'Accept-Language': 'ja' }, 200, null],
    ['invalid cookie falls through', { Cookie: 'i18n_redirected=../../etc', 'Accept-Language': 'ja' }, 307, '/ja'],
  ];
  for (const [name, headers, status, location] of cases) {
    test(name, async () => {
      const response = await rawGet(base(), '/', headers);
      expect(response.status).toBe(status);
      if (location) expect(new URL(response.headers.location as string, base()).pathname).toBe(location);
      expect(String(response.headers.vary)).toMatch(/Cookie/);
      expect(String(response.headers.vary)).toMatch(/Accept-Language/);
    });
  }

  test('a redirect keeps the query string', async () => {
    const response = await rawGet(base(), '/?utm_source=mail&x=1', { 'Accept-Language': 'ja' });
    expect(response.headers.location).toMatch(/\/ja\?utm_source=mail&x=1$/);
  });

  test('a redirect decided by Accept-Language writes the cookie', async () => {
    const response = await rawGet(base(), '/', { 'Accept-Language': 'ja' });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^i18n_redirected=ja;/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).not.toMatch(/Secure/);
  });

  test('the cookie is Secure behind HTTPS', async () => {
    const response = await rawGet(base(), '/', { 'Accept-Language': 'ja', 'X-Forwarded-Proto': 'https' });
    expect(String(response.headers['set-cookie'])).toMatch(/Secure/);
  });

  test('a redirect decided by the cookie does not rewrite it', async () => {
    const response = await rawGet(base(), '/', { Cookie: 'i18n_redirected=ja' });
    expect(response.status).toBe(307);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  test('router prefetches never write the cookie', async () => {
    const prefetches: Record<string, string>[] = [{ RSC: '1' }, { 'Next-Router-Prefetch': '1', RSC: '1' }, { 'Sec-Fetch-Dest': 'empty' }];
    for (const headers of prefetches) {
      const response = await rawGet(base(), '/', { 'Accept-Language': 'ja', ...headers });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  test('an invalid cookie value is never echoed', async () => {
    const response = await rawGet(base(), '/', { Cookie: 'i18n_redirected=<svg onload=alert(1)>' });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain('<svg onload');
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

test.describe('prefixes', () => {
  test('/en redirects permanently to the unprefixed path', async () => {
    for (const [from, to] of <[string, string][]>[
      ['/en', '/'],
      ['/en/anything?x=1', '/anything?x=1'],
      ['/EN/anything', '/anything'],
    ]) {
      const response = await rawGet(base(), from);
      expect(response.status, from).toBe(308);
      const location = new URL(response.headers.location as string, base());
      expect(`${location.pathname}${location.search}`, from).toBe(to);
    }
  });

  test('a wrong-case prefix redirects to the canonical one', async () => {
    for (const [from, to] of <[string, string][]>[
      ['/zh-cn', '/zh-CN'],
      ['/ZH-CN/x', '/zh-CN/x'],
      ['/JA', '/ja'],
      ['/Ja/x?y=1', '/ja/x?y=1'],
    ]) {
      const response = await rawGet(base(), from);
      expect(response.status, from).toBe(308);
      const location = new URL(response.headers.location as string, base());
      expect(`${location.pathname}${location.search}`, from).toBe(to);
    }
  });

  test('opening a prefixed page does not touch the cookie, whatever the Referer', async () => {
    for (const referer of ['http://evil.example/zh-CN', 'not a url', '', 'http://localhost/ja']) {
      const response = await rawGet(base(), '/zh-CN', { Referer: referer, Cookie: 'i18n_redirected=ja' });
      expect(response.status).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });
});

test.describe('document head', () => {
  for (const [path, lang, canonical] of <[string, string, string][]>[
    ['/', 'en', '/'],
    ['/zh-CN', 'zh-CN', '/zh-CN'],
    ['/ja', 'ja', '/ja'],
  ]) {
    test(`${path} declares its language and alternates`, async () => {
      const { body } = await rawGet(base(), path);
      expect(body).toMatch(new RegExp(`<html [^>]*lang="${lang}"`));
      expect(body).toContain(`<link rel="canonical" href="${canonical}"/>`);
      for (const [hreflang, href] of [
        ['en', '/'],
        ['zh-CN', '/zh-CN'],
        ['ja', '/ja'],
        ['x-default', '/'],
      ]) {
        expect(body).toContain(`<link rel="alternate" hrefLang="${hreflang}" href="${href}"/>`);
      }
      expect(body).toContain('<title>Meridian</title>');
    });
  }
});
