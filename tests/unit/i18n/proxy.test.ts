import { describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { localeProxy } from '@/i18n/proxy';

function run(path: string, headers: Record<string, string> = {}) {
  return localeProxy(new NextRequest(`http://localhost${path}`, { headers }));
}

function setCookies(response: Response): string[] {
  return response.headers.getSetCookie();
}

describe('localeProxy: the root redirect', () => {
  it('redirects / to /ja and remembers the choice', () => {
    const response = run('/', { 'accept-language': 'ja' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(/\/ja$/);
    const cookies = setCookies(response);
    expect(cookies).toHaveLength(1);
    const cookie = cookies[0] ?? '';
    expect(cookie).toMatch(/^i18n_redirected=ja(;|$)/);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(cookie).toMatch(/;\s*Max-Age=31536000(;|$)/i);
    expect(cookie).toMatch(/;\s*SameSite=lax(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    const vary = (response.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
    expect(vary).toEqual(expect.arrayContaining(['cookie', 'accept-language']));
  });

  it('marks the cookie Secure behind an HTTPS proxy', () => {
    const response = run('/', { 'accept-language': 'ja', 'x-forwarded-proto': 'https' });
    expect(setCookies(response)[0]).toMatch(/;\s*Secure(;|$)/i);
  });

  it('marks the cookie Secure on an https URL', () => {
    const request = new NextRequest('https://localhost/', { headers: { 'accept-language': 'zh-CN' } });
    const response = localeProxy(request);
    expect(response.headers.get('location')).toMatch(/\/zh-CN$/);
    expect(setCookies(response)[0]).toMatch(/;\s*Secure(;|$)/i);
  });

  it('sets no cookie for a router payload fetch', () => {
    const response = run('/', { 'accept-language': 'ja', RSC: '1' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(/\/ja$/);
    expect(setCookies(response)).toEqual([]);
  });

  it('follows the cookie without setting it again', () => {
    const response = run('/', { cookie: 'i18n_redirected=ja', 'accept-language': 'zh-CN' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(/\/ja$/);
    expect(setCookies(response)).toEqual([]);
  });

  it('keeps the query string', () => {
    const response = run('/?a=1&b=2', { 'accept-language': 'ja' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.pathname).toBe('/ja');
    expect(location.search).toBe('?a=1&b=2');
  });

  it('serves / in English with Vary when nothing asks otherwise', () => {
    const response = run('/');
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-middleware-rewrite')).toMatch(/\/en$/);
    expect(response.headers.get('vary')).toMatch(/accept-language/i);
  });
});

describe('localeProxy: other pages', () => {
  it.each([{ referer: 'not a url' }, { referer: 'http://localhost/zh-CN' }])('never sets the cookie from %j', (headers) => {
    const response = run('/ja/foo', headers);
    expect(response.headers.get('location')).toBeNull();
    expect(setCookies(response)).toEqual([]);
  });

  it('redirects /en/foo permanently to /foo', () => {
    const response = run('/en/foo?x=1');
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get('location') ?? '').pathname).toBe('/foo');
    expect(new URL(response.headers.get('location') ?? '').search).toBe('?x=1');
  });

  it('keeps /en//evil.example/ on the site', () => {
    const response = run('/en//evil.example/');
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.host).toBe('localhost');
    expect(location.pathname).toBe('/evil.example/');
  });

  it('rewrites an English page to its internal path', () => {
    const response = run('/foo');
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-middleware-rewrite')).toMatch(/\/en\/foo$/);
  });

  it.each(['/foo', '/ja/foo', '/'])('forwards the requested path of %s to the page', (path) => {
    const response = run(path);
    expect(response.headers.get('x-middleware-override-headers')).toContain('x-meridian-requested-path');
    expect(response.headers.get('x-middleware-request-x-meridian-requested-path')).toBe(path);
  });

  it('passes /ja/foo through without rewriting it', () => {
    const response = run('/ja/foo');
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });

  it.each(['/robots.txt', '/x.json', '/manifest.webmanifest', '/feed.xml', '/api/x', '/healthz'])('leaves %s alone', (path) => {
    const response = run(path, { 'accept-language': 'ja' });
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-middleware-request-x-meridian-requested-path')).toBeNull();
    expect(setCookies(response)).toEqual([]);
  });
});
