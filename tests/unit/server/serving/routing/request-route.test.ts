import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { routeOf } from '@/server/serving/routing/request-route';

const requestOf = (url: string | undefined, headers: Record<string, string> = {}, method = 'GET') =>
  ({ url, method, headers }) as unknown as IncomingMessage;

describe('routeOf: the target as sent', () => {
  it.each([
    ['/ja?x=1', '/ja', 'x=1'],
    ['/', '/', ''],
    [undefined, '/', ''],
    ['//evil.example', '//evil.example', ''],
    ['/%E0%A4%A?_rsc=1', '/%E0%A4%A', '_rsc=1'],
    ['/ja?', '/ja', ''],
    ['/ja?a=%ZZ&b', '/ja', 'a=%ZZ&b'],
    ['*', '/*', ''],
  ])('%s → path %s, query %s', (target, pathname, query) => {
    const route = routeOf(requestOf(target));
    expect(route.pathname).toBe(pathname);
    expect(route.query).toBe(query);
  });
});

describe('routeOf: one decision, by the locale rules', () => {
  it('decides the root by the language cookie, then Accept-Language', () => {
    expect(routeOf(requestOf('/', { cookie: 'a=b; i18n_redirected=ja' })).decision).toMatchObject({ kind: 'redirect', pathname: '/ja' });
    expect(routeOf(requestOf('/', { 'accept-language': 'zh-CN' })).decision).toMatchObject({ kind: 'redirect', pathname: '/zh-CN' });
    expect(routeOf(requestOf('/')).decision).toMatchObject({ kind: 'serve', internalPathname: '/en', variesByLanguage: true });
  });

  it('remembers the language only for a page load decided by Accept-Language', () => {
    expect(routeOf(requestOf('/', { 'accept-language': 'ja' })).decision).toMatchObject({ rememberLocale: 'ja' });
    expect(routeOf(requestOf('/', { 'accept-language': 'ja', rsc: '1' })).decision).toMatchObject({ rememberLocale: undefined });
  });

  it('passes files and APIs by', () => {
    for (const path of ['/_next/static/chunks/a.js?dpl=x', '/api/telemetry', '/healthz', '/favicon.ico']) {
      expect(routeOf(requestOf(path, { cookie: 'i18n_redirected=ja' })).decision.kind).toBe('pass');
    }
  });
});

describe('routeOf: page loads', () => {
  it.each<[string, Record<string, string>, string, boolean]>([
    ['/ja', {}, 'GET', true],
    ['/ja', {}, 'HEAD', true],
    ['/ja', {}, 'POST', false],
    ['/ja', { rsc: '1' }, 'GET', false],
    ['/ja?_rsc=abc', {}, 'GET', false],
    ['/ja', { 'sec-purpose': 'prefetch' }, 'GET', false],
    ['/ja', { 'sec-fetch-dest': 'document' }, 'GET', true],
    ['/ja', { 'sec-fetch-dest': 'script' }, 'GET', false],
    ['/en', {}, 'GET', false],
    ['/robots.txt', {}, 'GET', false],
  ])('%s %j (%s) is a page load: %s', (path, headers, method, pageLoad) => {
    expect(routeOf(requestOf(path, headers, method)).pageLoad).toBe(pageLoad);
  });
});
