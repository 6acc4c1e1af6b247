import { describe, expect, it } from 'vitest';
import { decideRoute, isDocumentRequest, isPassthroughPath, type RoutingRequest } from '@/i18n/routing';

function route(pathname: string, overrides: Partial<Omit<RoutingRequest, 'pathname'>> = {}) {
  return decideRoute({ pathname, cookie: undefined, acceptLanguage: null, isDocument: true, ...overrides });
}

describe('isPassthroughPath', () => {
  it.each([
    '/_next/static/x.js',
    '/_next/image',
    '/api/telemetry',
    '/api',
    '/builds',
    '/builds/latest.json',
    '/healthz',
    '/readyz',
    '/robots.txt',
    '/site.webmanifest',
    '/feed.xml',
    '/data.json',
    '/a/b/c.txt',
    '/ja/image.PNG',
  ])('%s is passed through', (pathname) => {
    expect(isPassthroughPath(pathname)).toBe(true);
    expect(route(pathname, { acceptLanguage: 'ja' })).toEqual({ kind: 'pass' });
  });

  it.each(['/', '/ja', '/en', '/foo', '/healthzx', '/healthz/x', '/apix', '/api-docs', '/buildsx', '/a.b/c', '/foo.'])(
    '%s is a page',
    (pathname) => {
      expect(isPassthroughPath(pathname)).toBe(false);
      expect(route(pathname).kind).not.toBe('pass');
    },
  );
});

describe('decideRoute: locale prefixes', () => {
  it.each([
    ['/en', '/'],
    ['/en/', '/'],
    ['/en/foo', '/foo'],
    ['/EN/foo', '/foo'],
    ['/En/a/b', '/a/b'],
    ['/zh-cn', '/zh-CN'],
    ['/ZH-CN/a', '/zh-CN/a'],
    ['/JA/x', '/ja/x'],
    ['/Ja', '/ja'],
  ])('%s → 308 %s', (pathname, target) => {
    expect(route(pathname, { cookie: 'ja', acceptLanguage: 'zh' })).toEqual({
      kind: 'redirect',
      status: 308,
      pathname: target,
      variesByLanguage: false,
    });
  });

  // These end in what looks like a file extension (".example"), so they are passed
  // through untouched (never redirected) before any locale logic runs.
  it.each(['/en//evil.example', '/en/\\evil.example', '/en/\\\\//evil.example'])('%s is passed through, never redirected', (pathname) => {
    expect(route(pathname)).toEqual({ kind: 'pass' });
  });

  it.each([
    ['/en//evil.example/', '/evil.example/'],
    ['/en/\\evil.example/x', '/evil.example/x'],
    ['/en/\\\\//evil.example/', '/evil.example/'],
    ['/EN///\\evil', '/evil'],
    ['/en//', '/'],
    ['/JA//evil.example/', '/ja/evil.example/'],
    ['/zh-cn/\\/evil', '/zh-CN/evil'],
  ])('%s → 308 to the same-site %s', (pathname, target) => {
    const decision = route(pathname);
    expect(decision).toMatchObject({ kind: 'redirect', status: 308, pathname: target });
    if (decision.kind !== 'redirect') return;
    if (target !== '/') expect(decision.pathname).toMatch(/^\/[^/\\]/);
    // Resolved against the site, the target stays on the site.
    expect(new URL(decision.pathname, 'https://site.example').host).toBe('site.example');
  });

  it.each([
    ['/ja', 'ja'],
    ['/ja/x', 'ja'],
    ['/zh-CN', 'zh-CN'],
    ['/zh-CN/a', 'zh-CN'],
  ])('serves %s as %s unchanged', (pathname, locale) => {
    expect(route(pathname, { cookie: 'en', acceptLanguage: 'en' })).toEqual({
      kind: 'serve',
      locale,
      internalPathname: pathname,
      variesByLanguage: false,
    });
  });

  it.each([
    ['/foo', '/en/foo'],
    ['/foo/bar', '/en/foo/bar'],
    ['/ja-JP/foo', '/en/ja-JP/foo'],
    ['/zh/x', '/en/zh/x'],
    ['/english', '/en/english'],
  ])('serves %s in English at %s', (pathname, internal) => {
    expect(route(pathname, { cookie: 'ja', acceptLanguage: 'ja' })).toEqual({
      kind: 'serve',
      locale: 'en',
      internalPathname: internal,
      variesByLanguage: false,
    });
  });
});

describe('decideRoute: the root path', () => {
  it('redirects to the cookie locale without re-setting the cookie', () => {
    expect(route('/', { cookie: 'ja', acceptLanguage: 'zh-CN' })).toEqual({
      kind: 'redirect',
      status: 307,
      pathname: '/ja',
      rememberLocale: undefined,
      variesByLanguage: true,
    });
  });

  it('redirects to the Accept-Language locale and remembers it on a page load', () => {
    expect(route('/', { acceptLanguage: 'zh-Hans', isDocument: true })).toEqual({
      kind: 'redirect',
      status: 307,
      pathname: '/zh-CN',
      rememberLocale: 'zh-CN',
      variesByLanguage: true,
    });
  });

  it('does not remember the locale for a prefetch or payload fetch', () => {
    expect(route('/', { acceptLanguage: 'zh-Hans', isDocument: false })).toEqual({
      kind: 'redirect',
      status: 307,
      pathname: '/zh-CN',
      rememberLocale: undefined,
      variesByLanguage: true,
    });
  });

  it('serves English with no cookie and no header', () => {
    expect(route('/')).toEqual({ kind: 'serve', locale: 'en', internalPathname: '/en', variesByLanguage: true });
  });

  it('serves English when Accept-Language asks for it', () => {
    expect(route('/', { acceptLanguage: 'en-GB, ja;q=0.5' })).toEqual({
      kind: 'serve',
      locale: 'en',
      internalPathname: '/en',
      variesByLanguage: true,
    });
  });

  it('lets an English cookie win over Accept-Language', () => {
    expect(route('/', { cookie: 'en', acceptLanguage: 'ja' })).toEqual({
      kind: 'serve',
      locale: 'en',
      internalPathname: '/en',
      variesByLanguage: true,
    });
  });

  it.each(['', 'fr', 'ZH-cn', '../../etc'])('ignores the invalid cookie %j', (cookie) => {
    expect(route('/', { cookie, acceptLanguage: 'ja' })).toEqual({
      kind: 'redirect',
      status: 307,
      pathname: '/ja',
      rememberLocale: 'ja',
      variesByLanguage: true,
    });
  });
});

describe('decideRoute: hostile paths', () => {
  it('decides on a 10 000-character path', () => {
    const long = `/${'a'.repeat(9999)}`;
    expect(route(long)).toEqual({ kind: 'serve', locale: 'en', internalPathname: `/en${long}`, variesByLanguage: false });
  });

  it('decides on a 10 000-character path under /en', () => {
    const decision = route(`/en/${'/'.repeat(5000)}${'b'.repeat(4996)}`);
    expect(decision).toMatchObject({ kind: 'redirect', status: 308, pathname: `/${'b'.repeat(4996)}` });
  });
});

describe('isDocumentRequest', () => {
  it.each<[Record<string, string>, boolean]>([
    [{}, true],
    [{ accept: 'text/html' }, true],
    [{ 'sec-fetch-dest': 'document' }, true],
    [{ 'sec-fetch-dest': 'empty' }, false],
    [{ 'sec-fetch-dest': 'iframe' }, false],
    [{ RSC: '1' }, false],
    [{ 'Next-Router-Prefetch': '1' }, false],
    [{ Purpose: 'prefetch' }, false],
    [{ 'Sec-Purpose': 'prefetch;prerender' }, false],
    [{ 'Sec-Purpose': 'prefetch', 'sec-fetch-dest': 'document' }, false],
    [{ 'Next-Router-State-Tree': '%5B%5D' }, false],
    [{ 'Next-Router-Segment-Prefetch': '/_tree' }, false],
    [{ 'Next-Action': 'abc' }, false],
  ])('%j → %s', (headers, expected) => {
    const request = new Headers(headers);
    expect(isDocumentRequest(request, (headers, name) => headers.get(name))).toBe(expected);
  });
});
